// The technical part of an error (its code, the catalog's request id) folded under "Details": the
// admin reads the sentence; support asks for what is inside.
export const ErrorDetails = ({ detail, className = "" }: { detail: string | null | undefined; className?: string }) =>
  detail ? (
    <details className={`txt-compact-xsmall text-ui-fg-subtle ${className}`}>
      <summary className="cursor-pointer select-none">Details</summary>
      <span data-testid="error-detail">{detail}</span>
    </details>
  ) : null
