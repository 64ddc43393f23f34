import type { ProductCard } from "../../catalog-client/schemas"

export function card(overrides: Partial<ProductCard> = {}): ProductCard {
  return {
    id: "9223372036854775807",
    sku: "UA-000123",
    name: "Кросівки",
    name_uk: "Кросівки",
    name_ru: "Кроссовки",
    description_uk: "Опис",
    description_ru: "Описание",
    cost_price: "1000.00",
    price: "1300.00",
    in_stock: true,
    stock: 5,
    sizes: [
      { size: "42", stock: 3, cost_price: "990.00", price: "1287.00" },
      { size: "43", stock: 2, cost_price: "1000.00", price: "1300.10" },
    ],
    images: [
      { url: "http://img/1.png", is_main: false },
      { url: "http://img/0.png", is_main: true },
    ],
    sync_version: 7,
    ...overrides,
  } as ProductCard
}
