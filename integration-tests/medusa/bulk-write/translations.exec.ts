// Run inside the demo app with `medusa exec`: the same translations are written once by the
// translation module's createTranslations and once by the bulk writer's insert
// (src/bulk-write/translations.ts); both sets of rows are saved, ids and timestamps replaced
// by their shape, for the spec to compare. Usage: medusa exec translations.exec.ts <out.json>
import fs from "node:fs"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { insertTranslations, type NewTranslation } from "../../../src/bulk-write/translations"

type Row = Record<string, any>
const ID = /^trans_[0-9A-HJKMNP-TV-Z]{26}$/

function shape(row: Row, tag: string): Row {
  const out: Row = {}
  for (const [k, v] of Object.entries(row)) {
    if (k === "id") out[k] = ID.test(v) ? "<trans>" : `bad id ${v}`
    else if (k === "created_at" || k === "updated_at") out[k] = v instanceof Date ? "<ts>" : `bad ${k} ${v}`
    else out[k] = v === null || typeof v === "number" ? v : JSON.parse(JSON.stringify(v).split(tag).join("<tag>"))
  }
  return out
}

const input = (tag: string): NewTranslation[] => [
  // A product with every text field, one with an empty subtitle, one in a locale written in lower case.
  {
    reference: "product",
    reference_id: `prod_${tag}_1`,
    locale_code: "ru-RU",
    translations: { title: `Кроссовки ${tag}`, description: "Описание", subtitle: "Подзаголовок" },
  },
  { reference: "product", reference_id: `prod_${tag}_2`, locale_code: "ru-RU", translations: { title: `Кеды ${tag}`, subtitle: "" } },
  { reference: "product", reference_id: `prod_${tag}_3`, locale_code: "uk-ua", translations: { title: `Кеди ${tag}`, material: "шкіра" } },
  { reference: "product_option", reference_id: `opt_${tag}`, locale_code: "ru-RU", translations: { title: "Размер" } },
  { reference: "product_option_value", reference_id: `optval_${tag}`, locale_code: "ru-RU", translations: { value: "Один размер" } },
  { reference: "product_category", reference_id: `pcat_${tag}`, locale_code: "ru-RU", translations: { name: `Обувь ${tag}`, description: "Вся обувь" } },
]

export default async function compare({ container, args }: { container: any; args: string[] }) {
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const service = container.resolve(Modules.TRANSLATION)
  await service.createTranslations(input("ByModule"))
  const ids = await insertTranslations(pg, input("BySql"), await service.getTranslatableFields())
  const read = async (tag: string) =>
    (await pg.raw("select * from translation where reference_id like ? order by reference, reference_id", [`%\\_${tag}%`])).rows.map((r: Row) => shape(r, tag))
  // Medusa's own read of the bulk rows.
  const listed = await service.listTranslations({ id: ids }, { select: ["id", "reference_id", "locale_code", "translations"] })
  fs.writeFileSync(
    args[0],
    JSON.stringify({ module: await read("ByModule"), sql: await read("BySql"), ids, listed: listed.map((r: Row) => shape(r, "BySql")) }, null, 2)
  )
}
