// URL slugs from Ukrainian names (simplified national transliteration).

const MAP: Record<string, string> = {
  а: "a",
  б: "b",
  в: "v",
  г: "h",
  ґ: "g",
  д: "d",
  е: "e",
  є: "ie",
  ж: "zh",
  з: "z",
  и: "y",
  і: "i",
  ї: "i",
  й: "i",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "kh",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "shch",
  ь: "",
  ю: "iu",
  я: "ia",
  "'": "",
  "’": "",
}

export function slugify(text: string): string {
  const latin = Array.from(text.toLowerCase())
    .map((ch) => (ch in MAP ? MAP[ch] : ch))
    .join("")
  return latin.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")
}
