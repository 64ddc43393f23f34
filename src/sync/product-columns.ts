// The product columns the sync writes, described once. Everything that writes or compares a
// product's plain columns derives from this list: the mapped product's type (CatalogProduct),
// the mapping's result type (CardDescription), the product module's input on the workflow path
// (productFields), the bulk insert's product row and the bulk update's typed tuple
// (src/bulk-write), and the fingerprint's part for columns added after mapping version 2.
// Images, categories, metadata, options and variants are not plain columns: each has its own
// shape and its own code. docs/adding-a-field.md is the checklist for a new column.
// Pure, no imports: CatalogProduct imports this file's types (a cycle would break the layering).

/** The SQL type the bulk update casts a column's value to (Medusa's column type). */
export type ColumnSqlType = "text" | "real"

/** One plain column of Medusa's `product` table, named as the product module names the field. */
export interface ProductColumn {
  name: string
  type: ColumnSqlType
}

/** A column of values of type T (T is only for the type system: the mapped product's field type). */
interface TypedColumn<T> {
  type: ColumnSqlType
  readonly valueType?: T
}

function text<T extends string | null = string | null>(): TypedColumn<T> {
  return { type: "text" }
}

function real(): TypedColumn<number | null> {
  return { type: "real" }
}

/**
 * The description: Medusa column name → its type. The mapped product (CatalogProduct) has a field
 * of the same name holding the value to write; null writes NULL.
 */
export const PRODUCT_COLUMNS = {
  title: text<string>(),
  handle: text<string>(),
  subtitle: text(),
  description: text(),
  status: text<"published" | "draft">(),
  external_id: text<string>(),
  thumbnail: text(),
  /** grams */
  weight: real(),
  /** millimetres */
  length: real(),
  width: real(),
  height: real(),
  material: text(),
  /** ISO 3166-1 alpha-2, lower case as Medusa's country list spells it */
  origin_country: text(),
}

export type ProductColumnName = keyof typeof PRODUCT_COLUMNS

/** The mapped product's column fields, typed from the description. */
export type ProductColumnValues = {
  [K in ProductColumnName]: (typeof PRODUCT_COLUMNS)[K] extends TypedColumn<infer T> ? T : never
}

/** The description as a list, in the order above. */
export const PRODUCT_COLUMN_LIST: readonly ProductColumn[] = Object.freeze(
  Object.entries(PRODUCT_COLUMNS).map(([name, c]) => Object.freeze({ name, type: c.type }))
)

/**
 * An object with these keys and values (JSON values), to copy with `{ ...template }` once per product:
 * a copy is allocated as an object literal is, every property in the object itself, where an
 * object built key by key also allocates a separate property store. JSON.parse lays its objects
 * out that way (Object.fromEntries does not, and neither do copies of it).
 */
export function objectTemplate(entries: [string, null | boolean][]): Record<string, unknown> {
  return JSON.parse(JSON.stringify(Object.fromEntries(entries)))
}

/** `[name, null]` for each column, for objectTemplate. */
export function nullColumns(columns: readonly ProductColumn[]): [string, null][] {
  return columns.map((c) => [c.name, null])
}

/** Sets each column's value from a mapped product on `target`, as the product holds it (null writes NULL). */
export function copyColumnValues(target: Record<string, unknown>, product: object, columns: readonly ProductColumn[]): void {
  const values = product as Record<string, unknown>
  for (let i = 0; i < columns.length; i++) {
    const name = columns[i].name
    target[name] = values[name]
  }
}

/** column name → SQL type, for the bulk update's casts. */
export function columnTypes(columns: readonly ProductColumn[]): Record<string, ColumnSqlType> {
  return Object.fromEntries(columns.map((c) => [c.name, c.type]))
}
