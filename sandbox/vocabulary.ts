// Word lists for the generated catalog, in Ukrainian and Russian.

export interface Bilingual {
  uk: string
  ru: string
}

export type SizeKind = "clothing" | "kids" | "shoes" | "none"

export interface ProductType {
  name: Bilingual
  group: "clothing" | "shoes" | "accessories"
  sizeKind: SizeKind
  /** Typical wholesale cost range in UAH. */
  costRange: [number, number]
  weightGrams: [number, number]
}

export const AUDIENCES: Bilingual[] = [
  { uk: "Жінкам", ru: "Женщинам" },
  { uk: "Чоловікам", ru: "Мужчинам" },
  { uk: "Дітям", ru: "Детям" },
]

export const GROUPS: Record<ProductType["group"], Bilingual> = {
  clothing: { uk: "Одяг", ru: "Одежда" },
  shoes: { uk: "Взуття", ru: "Обувь" },
  accessories: { uk: "Аксесуари", ru: "Аксессуары" },
}

export const PRODUCT_TYPES: ProductType[] = [
  { name: { uk: "Футболка", ru: "Футболка" }, group: "clothing", sizeKind: "clothing", costRange: [150, 900], weightGrams: [150, 300] },
  { name: { uk: "Сукня", ru: "Платье" }, group: "clothing", sizeKind: "clothing", costRange: [400, 3500], weightGrams: [250, 700] },
  { name: { uk: "Джинси", ru: "Джинсы" }, group: "clothing", sizeKind: "clothing", costRange: [500, 2800], weightGrams: [500, 900] },
  { name: { uk: "Куртка", ru: "Куртка" }, group: "clothing", sizeKind: "clothing", costRange: [900, 7500], weightGrams: [700, 1800] },
  { name: { uk: "Худі", ru: "Худи" }, group: "clothing", sizeKind: "clothing", costRange: [400, 2200], weightGrams: [400, 800] },
  { name: { uk: "Светр", ru: "Свитер" }, group: "clothing", sizeKind: "clothing", costRange: [450, 2600], weightGrams: [350, 800] },
  { name: { uk: "Сорочка", ru: "Рубашка" }, group: "clothing", sizeKind: "clothing", costRange: [350, 1900], weightGrams: [200, 400] },
  { name: { uk: "Комбінезон", ru: "Комбинезон" }, group: "clothing", sizeKind: "kids", costRange: [300, 2500], weightGrams: [300, 900] },
  { name: { uk: "Піжама", ru: "Пижама" }, group: "clothing", sizeKind: "kids", costRange: [200, 900], weightGrams: [200, 450] },
  { name: { uk: "Кросівки", ru: "Кроссовки" }, group: "shoes", sizeKind: "shoes", costRange: [900, 5500], weightGrams: [600, 1200] },
  { name: { uk: "Черевики", ru: "Ботинки" }, group: "shoes", sizeKind: "shoes", costRange: [1200, 6500], weightGrams: [900, 1700] },
  { name: { uk: "Туфлі", ru: "Туфли" }, group: "shoes", sizeKind: "shoes", costRange: [800, 4500], weightGrams: [500, 1000] },
  { name: { uk: "Кеди", ru: "Кеды" }, group: "shoes", sizeKind: "shoes", costRange: [500, 2500], weightGrams: [500, 900] },
  { name: { uk: "Сандалі", ru: "Сандалии" }, group: "shoes", sizeKind: "shoes", costRange: [400, 2200], weightGrams: [300, 700] },
  { name: { uk: "Сумка", ru: "Сумка" }, group: "accessories", sizeKind: "none", costRange: [400, 6000], weightGrams: [300, 1200] },
  { name: { uk: "Рюкзак", ru: "Рюкзак" }, group: "accessories", sizeKind: "none", costRange: [350, 3500], weightGrams: [400, 1100] },
  { name: { uk: "Ремінь", ru: "Ремень" }, group: "accessories", sizeKind: "none", costRange: [150, 1500], weightGrams: [100, 300] },
  { name: { uk: "Гаманець", ru: "Кошелек" }, group: "accessories", sizeKind: "none", costRange: [200, 2500], weightGrams: [80, 250] },
  { name: { uk: "Годинник", ru: "Часы" }, group: "accessories", sizeKind: "none", costRange: [600, 12000], weightGrams: [80, 300] },
  { name: { uk: "Сонцезахисні окуляри", ru: "Солнцезащитные очки" }, group: "accessories", sizeKind: "none", costRange: [250, 4000], weightGrams: [50, 150] },
]

export const SIZE_SETS: Record<SizeKind, string[]> = {
  clothing: ["XS", "S", "M", "L", "XL", "XXL", "3XL"],
  kids: ["92", "98", "104", "110", "116", "122", "128", "134", "140"],
  shoes: ["36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46"],
  none: [],
}

/** Brands and their models; each model belongs to one product group (a shoe model never names a bag). */
export const BRANDS: { name: string; models: [string, ProductType["group"]][] }[] = [
  {
    name: "Nike",
    models: [
      ["Air Max 90", "shoes"],
      ["Air Force 1", "shoes"],
      ["Pegasus 40", "shoes"],
      ["Dunk Low", "shoes"],
      ["Tech Fleece", "clothing"],
    ],
  },
  {
    name: "Adidas",
    models: [
      ["Superstar", "shoes"],
      ["Stan Smith", "shoes"],
      ["Gazelle", "shoes"],
      ["Samba", "shoes"],
      ["Ultraboost", "shoes"],
    ],
  },
  {
    name: "Puma",
    models: [
      ["Suede Classic", "shoes"],
      ["RS-X", "shoes"],
      ["Cali", "shoes"],
    ],
  },
  {
    name: "New Balance",
    models: [
      ["574", "shoes"],
      ["990v6", "shoes"],
      ["530", "shoes"],
      ["2002R", "shoes"],
    ],
  },
  {
    name: "Reebok",
    models: [
      ["Club C 85", "shoes"],
      ["Classic Leather", "shoes"],
    ],
  },
  {
    name: "Converse",
    models: [
      ["Chuck Taylor All Star", "shoes"],
      ["Run Star Hike", "shoes"],
    ],
  },
  {
    name: "Vans",
    models: [
      ["Old Skool", "shoes"],
      ["Sk8-Hi", "shoes"],
      ["Authentic", "shoes"],
    ],
  },
  {
    name: "Timberland",
    models: [
      ["6-Inch Premium", "shoes"],
      ["Euro Hiker", "shoes"],
    ],
  },
  {
    name: "Columbia",
    models: [
      ["Bugaboo", "clothing"],
      ["Powder Lite", "clothing"],
    ],
  },
  {
    name: "The North Face",
    models: [
      ["Nuptse", "clothing"],
      ["Denali", "clothing"],
      ["Borealis", "accessories"],
    ],
  },
  {
    name: "Levi's",
    models: [
      ["501", "clothing"],
      ["511", "clothing"],
      ["Ribcage", "clothing"],
    ],
  },
  { name: "Tommy Hilfiger", models: [] },
  { name: "Calvin Klein", models: [] },
  { name: "Lacoste", models: [["L.12.12", "clothing"]] },
  { name: "Zara", models: [] },
  { name: "Mango", models: [] },
  { name: "Guess", models: [] },
  {
    name: "Michael Kors",
    models: [
      ["Jet Set", "accessories"],
      ["Mercer", "accessories"],
    ],
  },
  {
    name: "Casio",
    models: [
      ["G-Shock GA-2100", "accessories"],
      ["Edifice", "accessories"],
      ["Vintage A168", "accessories"],
    ],
  },
  {
    name: "Fossil",
    models: [
      ["Grant", "accessories"],
      ["Gen 6", "accessories"],
    ],
  },
  {
    name: "Ray-Ban",
    models: [
      ["Wayfarer", "accessories"],
      ["Aviator", "accessories"],
      ["Clubmaster", "accessories"],
    ],
  },
  {
    name: "Asics",
    models: [
      ["Gel-Kayano 30", "shoes"],
      ["Gel-Lyte III", "shoes"],
    ],
  },
  {
    name: "Skechers",
    models: [
      ["D'Lites", "shoes"],
      ["Go Walk", "shoes"],
    ],
  },
  { name: "Gepur", models: [] },
  { name: "Braska", models: [] },
  { name: "Kachorovska", models: [] },
  { name: "Sova", models: [] },
  {
    name: "Ecco",
    models: [
      ["Soft 7", "shoes"],
      ["Biom", "shoes"],
    ],
  },
]

export const COLORS: Bilingual[] = [
  { uk: "чорний", ru: "черный" },
  { uk: "білий", ru: "белый" },
  { uk: "синій", ru: "синий" },
  { uk: "червоний", ru: "красный" },
  { uk: "зелений", ru: "зеленый" },
  { uk: "сірий", ru: "серый" },
  { uk: "бежевий", ru: "бежевый" },
  { uk: "рожевий", ru: "розовый" },
  { uk: "коричневий", ru: "коричневый" },
  { uk: "хакі", ru: "хаки" },
]

export const MATERIALS: Bilingual[] = [
  { uk: "бавовна", ru: "хлопок" },
  { uk: "натуральна шкіра", ru: "натуральная кожа" },
  { uk: "поліестер", ru: "полиэстер" },
  { uk: "вовна", ru: "шерсть" },
  { uk: "замша", ru: "замша" },
  { uk: "льон", ru: "лен" },
  { uk: "текстиль", ru: "текстиль" },
  { uk: "нейлон", ru: "нейлон" },
  { uk: "екошкіра", ru: "экокожа" },
]

export const SEASONS: Bilingual[] = [
  { uk: "літо", ru: "лето" },
  { uk: "зима", ru: "зима" },
  { uk: "демісезон", ru: "демисезон" },
  { uk: "всесезон", ru: "всесезон" },
]

export const COUNTRIES = ["UA", "TR", "CN", "VN", "IT", "PL", "BD", "PT"]

export const DESCRIPTION_OPENERS: Bilingual[] = [
  { uk: "Зручна модель на кожен день.", ru: "Удобная модель на каждый день." },
  { uk: "Стильна новинка сезону.", ru: "Стильная новинка сезона." },
  { uk: "Класика, яка не виходить з моди.", ru: "Классика, которая не выходит из моды." },
  { uk: "Практичний вибір для міста та подорожей.", ru: "Практичный выбор для города и путешествий." },
  { uk: "Якісний пошив і продумані деталі.", ru: "Качественный пошив и продуманные детали." },
]

export const DESCRIPTION_CLOSERS: Bilingual[] = [
  { uk: "Догляд: делікатне прання при 30 °C.", ru: "Уход: деликатная стирка при 30 °C." },
  { uk: "Легко поєднується з іншими речами гардеробу.", ru: "Легко сочетается с другими вещами гардероба." },
  { uk: "Розмір відповідає стандартній розмірній сітці.", ru: "Размер соответствует стандартной размерной сетке." },
  { uk: "Оригінальна продукція з гарантією якості.", ru: "Оригинальная продукция с гарантией качества." },
]
