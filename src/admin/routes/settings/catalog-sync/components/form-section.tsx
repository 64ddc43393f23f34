import { Container, Heading, Text } from "@medusajs/ui"
import type { ReactNode } from "react"

/** One card of the settings form: a heading, a line of description, its fields in a grid. */
export const FormSection = ({ title, description, children }: { title: string; description: string; children: ReactNode }) => (
  <Container className="divide-y p-0">
    <div className="px-6 py-4">
      <Heading level="h2">{title}</Heading>
      <Text size="small" className="text-ui-fg-subtle">
        {description}
      </Text>
    </div>
    <div className="grid grid-cols-1 gap-4 px-6 py-4 md:grid-cols-2">{children}</div>
  </Container>
)
