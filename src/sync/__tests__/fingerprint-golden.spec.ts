// Fingerprints frozen as the mapping wrote them: every shop keeps them in its product map, so a
// change of any hash rewrites every product once. A refactor of the mapping must keep these
// byte-identical; a deliberate mapping change bumps MAPPING_VERSION and refreshes this list.
import { hostileItems } from "../../../integration-tests/medusa/hostile-catalog"
import { Catalog } from "../../../sandbox/catalog"
import { CardRenderer } from "../../../sandbox/cards"
import { makePricing } from "../../../sandbox/pricing"
import type { ProductCard } from "../../catalog-client/schemas"
import { validateChangeItems } from "../../catalog-client/items"
import { parseCatalogJson } from "../../catalog-client/json"
import { DEFAULT_PRICING_RULES, type PricingRules } from "../../pricing/rules"
import { fingerprint, stockFingerprint } from "../fingerprint"
import { mapCardToProduct, stockOf, type MapContext } from "../map-card"
import { resolveVocabulary } from "../shop-vocabulary"

const CARD_COUNT = 24

/** Sandbox cards under three pricings (none, markup, markup with a crossed-out discount), then the hostile cards kept. */
function cards(): ProductCard[] {
  const catalog = new Catalog(16, CARD_COUNT, Date.parse("2026-01-01T00:00:00Z"))
  const renderer = new CardRenderer(catalog, "http://127.0.0.1:4010")
  const pricings = [makePricing("max", null, null, null), makePricing("avg", "30", null, null), makePricing("min", "25.5", "20", null)]
  const items = catalog.liveProducts().map((p, i) => `{"status":"active","id":${p.idText},"product":${renderer.card(p, pricings[i % 3])}}`)
  items.push(
    ...hostileItems()
      .last.filter((h) => h.expect.kind !== "rejected")
      .map((h) => h.json)
  )
  const { items: valid } = validateChangeItems(parseCatalogJson(`[${items.join(",")}]`) as unknown[])
  return valid.flatMap((item) => ("product" in item ? [item.product] : []))
}

const rules: PricingRules = {
  ...DEFAULT_PRICING_RULES,
  base_markup_percent: "30",
  rounding: { mode: "ending", ending: "99", direction: "up" },
  crossed_out: { type: "discount", discount_percent: "20" },
}

const contexts: Record<string, MapContext> = {
  plain: {
    primaryLanguage: "uk",
    salesChannelId: "sc_1",
    stockLocationId: "sloc_1",
    categoryIdsFor: (d) => (d.categoryCatalogId ? [`pcat_${d.categoryCatalogId}`] : []),
  },
  ruled: {
    primaryLanguage: "ru",
    salesChannelId: null,
    vocabulary: resolveVocabulary({ uk: { option: "Розмір взуття", oneSize: "Єдиний" } }),
    pricing: { rules, categoryPathOf: (id) => (id ? ["1", id] : []) },
  },
}

function fingerprints(): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, ctx] of Object.entries(contexts)) {
    for (const c of cards()) {
      out[`${name} ${c.id}`] = fingerprint(mapCardToProduct(c, ctx))
      out[`${name} ${c.id} stock`] = stockFingerprint(stockOf(c), ctx.stockLocationId ?? null)
    }
  }
  return out
}

const GOLDEN: Record<string, string> = {
  "plain 1": "v2:f886c8123e6c82b56bf9d160a04023b4:4030e32eea080c9809a93a6029f45861:e9bf42ef3bd58879cc68521399bc52d7",
  "plain 1 stock": "c840ed149c8b85fc51656d997a9fd267",
  "plain 5": "v2:4f79ad78dda17af3eac1ac6ef8c8e399:02fc5f98f8458e9a10ba25a429fb3a57:16eadf111955b5a74637dd03b202fa32",
  "plain 5 stock": "8df3a0ded9f7c8be7e19d625749096c0",
  "plain 77": "v2:49b962666262609af5f28277f996e223:de0d47b47722a91f1692e4da47bf7057:d88d7c3559ab6f06415b9cd2043b634b",
  "plain 77 stock": "f56e689f5cee9dc58c699deaf2bb20d3",
  "plain 396": "v2:6e1ceff7c774d8037228768a3f155f32:0553ef5865d6436044e8f71140caa4ae:e430733528ed8d25b8e4dd585cc8d68a",
  "plain 396 stock": "8222ff621e9a203f527e0616e68ebbbc",
  "plain 2850": "v2:4f9e0eadd77d6327a7f1e09be5a37345:47dfb7c1ba5f710dce58e7f3ed7fa57c:ee242d75c298fc33a2fce19d1f64150c",
  "plain 2850 stock": "5a777c56d1cf981ca7b7600f1afebcff",
  "plain 5053": "v2:beb62c06d4d6f0e501ac7b4e64faf90a:608b61867e82773d2f6dbfa0b2bda606:df887437dbccfb085d9565216d8c375b",
  "plain 5053 stock": "e3337c011948b72955e568c5f9813ac1",
  "plain 9895": "v2:d037a24cabea4021c649df1de0ce4507:f60c997569e63fd459411e102603a9fe:32e0e947dd8e5522194f0f27d2934274",
  "plain 9895 stock": "40fc2e9fee0e3c420f42c7a4f4502978",
  "plain 2969140": "v2:71e8e4814b9b7b685ec62f1955859fab:1243deff190636739d0fe1ee41e730ba:c1f2f4105ff6c9efa0847174d7b2a32d",
  "plain 2969140 stock": "995c5284ec26abba227361a695f2ad6b",
  "plain 14557721": "v2:4ef5acdd299e331e5d5018c0ea2ba3dc:040e90d6e5493e8f55f78022764e2543:5134d3ef100296a175ed30309f55c52c",
  "plain 14557721 stock": "378b89a8f095fe60e278bb717e23fa21",
  "plain 197796113": "v2:37a6fdd5d8623cf8b9b35ead0a75febf:8610e4a902b4d0616a0561ccd469269d:98f4cdbf97f9a95f240f9797545b43b1",
  "plain 197796113 stock": "3b696a93d80f6bc60cfa91099a876e40",
  "plain 204351833": "v2:c5e4b38363872897f1fbc698a71152b2:1fb7b85f00ac789fc7382ea6a7c116f2:80590405fbd2cbbd4bdc45cead950bc3",
  "plain 204351833 stock": "ac7a20d179ef66008140e52668554986",
  "plain 300962284": "v2:05fd623b1c124bfee016838a26192b65:1a1348523c5b2d4f4887217858ec6e42:0818ab1e756af0652af317c4653378e4",
  "plain 300962284 stock": "09e1693d781aa511912d3043aabcd81d",
  "plain 1237958732": "v2:8b439b2d5a7456b9888086e20dc3e9ad:ec0de729c2c32a55ba78744f4eb3f6a2:f4c6e754e01e09aee6a6ac94ef7ff8f7",
  "plain 1237958732 stock": "cec90b74407fbfed303d0afb5956509c",
  "plain 3428286737": "v2:4dc17413cf06075db5e5664ce667b3f0:030580668f8db59b645ff34dcaa854d2:7c1abacde384749ce970d91791e4960e",
  "plain 3428286737 stock": "a6c6ee4ad1a15a1fdce27376e26f1d92",
  "plain 4353362426": "v2:14458796221fe1b8960444c3ac3173a7:6c7de1a73ac9a57730a70221c85cfaa2:6e9d912e56490ec74a026c185c00f0eb",
  "plain 4353362426 stock": "262ae070a47e34b07d20e42ae3b4288c",
  "plain 28991383635": "v2:01a81ede0d8cc289fc6e1dd6bc0b4d59:824ecbb953d798176a9f179743abf5d4:9626580b10b75d6963698286e44632c4",
  "plain 28991383635 stock": "5d2b0009d35387bb2d9e54fe25fc8004",
  "plain 50417963109": "v2:1f9c7cabac664bdd580fa7cb98f2ac2f:a497445f2e11a451f410b3e67b07c5d4:c9f1d739313eddca465e64f8c6aebf10",
  "plain 50417963109 stock": "fc8a9e0cbd5a04683135e25605b765a7",
  "plain 50035160261184": "v2:2b461349c24a4ed13fd738fc0cc91293:5335d7e221dd9b2d742da341fa3fc958:a21edee45935ac91713c54794e5ca004",
  "plain 50035160261184 stock": "76237749044763244edff1c5ec60e18b",
  "plain 257682379521213": "v2:a5ad16da0d67e4314346c43abfac98a7:83d190351c7cd11daa8ac1db44377ff3:c93f8fb411f54e62d8d08e05411f5276",
  "plain 257682379521213 stock": "66fe8b61ff4c01d6bca46b14ca3b3fb4",
  "plain 453778612044445": "v2:cf57da5133e4dfd4dbbf89381f10fb36:071a9b4bd9f3bda93e18e195fbafce58:24519177b42ba81ba327890ad4f6a1b1",
  "plain 453778612044445 stock": "ad51ebbd412a541220598907f6ca689f",
  "plain 4946187872261089": "v2:83e111be82f59f29c6c7e073d874e502:925bfb06ca714934e66a15405a7f7ae8:6a0622d9d5f9a16d7a85db6fdbca072d",
  "plain 4946187872261089 stock": "2ecd506284e69e0b1a66203fa8c60f6f",
  "plain 6761622471359678": "v2:1fd4e03541f62dafee580781cd634163:6be7b3028e3086cc1e9fa9a5817f0747:e7634d8f6e38ef55bbb1d27a5ae721ab",
  "plain 6761622471359678 stock": "1c93044182c248f7decf826b9dce7560",
  "plain 9007199254740993": "v2:3b8e50a0c81f3823999f3aa8846fc58b:0117c179e59c0a09f58e5485920e5b08:41ab0805fdeab9ec3e77f97a7708599e",
  "plain 9007199254740993 stock": "f0b13ef5c0d947bf5a15ec8a56fb8fb0",
  "plain 9223372036854775807": "v2:41bfceea4193dd17602694cf2c9fd4c8:951e671a5d9fc3ebfb4484e6fca1cf7f:d0dd2e856fe0c7f676d779c995e42a7e",
  "plain 9223372036854775807 stock": "c0676f4435849460204a364e9ab1946d",
  "plain 8000000000000000901": "v2:d0c4fc56363394915fa15989a0ff1c60:d0e6efaecc6f5bcd8eb72cc32a75587f:6e93e04d216e89bd5072182800075d5c",
  "plain 8000000000000000901 stock": "460e5880819596978be48b206d5a0432",
  "plain 8000000000000000902": "v2:aea9bdcb9ab7c8370651a4a1c6a09e20:989c4459158b686307631a28082d1ddd:d3dcf2b2a8bc2c13c747aafb78bc447b",
  "plain 8000000000000000902 stock": "e07f69a95e7e3fb4e71505d4f70022be",
  "plain 8000000000000000903": "v2:8586978e274d45a192b6b0a55e55ad6a:29b44646190216b0d51a9c5031369ca4:d3dcf2b2a8bc2c13c747aafb78bc447b",
  "plain 8000000000000000903 stock": "e07f69a95e7e3fb4e71505d4f70022be",
  "plain 8000000000000000904": "v2:44c02529edf1e928856215f0c90133a2:c05e27ed9af40253844f9910dd498a4d:d3dcf2b2a8bc2c13c747aafb78bc447b",
  "plain 8000000000000000904 stock": "e07f69a95e7e3fb4e71505d4f70022be",
  "plain 8000000000000000905": "v2:8ee7fa3a8ae5ec5b5cfb2a92db1c1406:34416a1594912ba1d2928aa81c3ded71:d3dcf2b2a8bc2c13c747aafb78bc447b",
  "plain 8000000000000000905 stock": "e07f69a95e7e3fb4e71505d4f70022be",
  "ruled 1": "v2:e5aa878433b5de810231d9a4a65b2b98:a838692d11ce6a11d67c4e0c0326e044:c90f93c0a94f08ce10ffa88b0640ab1e",
  "ruled 1 stock": "c90a25fb8fe26e25be9a1e2b86375275",
  "ruled 5": "v2:7b3dffb76e8e0fbdb3e90434b525a4ae:02fc5f98f8458e9a10ba25a429fb3a57:1b06a0837344ff637bac813a0a915b7b",
  "ruled 5 stock": "5ab68792bf90d88bcafd384b3078d852",
  "ruled 77": "v2:2d2551da2a4b121dbe283d3bc9aa1209:de0d47b47722a91f1692e4da47bf7057:451a01747c84e79672e773323f1df165",
  "ruled 77 stock": "9f5a6383d5a2afb067f2ef5bd3cb82bb",
  "ruled 396": "v2:7d100249875c367cbba614821574e1ce:0553ef5865d6436044e8f71140caa4ae:53620cc87fe4b61d059c1c62437ed243",
  "ruled 396 stock": "750ae516f57eaf6b8f2b8553d5364fbc",
  "ruled 2850": "v2:8e5f359a745a83a92fbd6cdf984a85bc:47dfb7c1ba5f710dce58e7f3ed7fa57c:cb1b770ceb1031ba3d8a03db2a9bace1",
  "ruled 2850 stock": "39bc72aef86294709e08cea7e3201bd8",
  "ruled 5053": "v2:49f9b361403a21cf7df149a6e936d16a:89d567fdb819187dbc1dd1fc661dfa63:f2c5a4d0a450a2a444b2a2f3fe5134e7",
  "ruled 5053 stock": "01b39cd57d7523f094fa925d4ff7b073",
  "ruled 9895": "v2:bbc1daf285f6beddf75e68bb30cd7455:f60c997569e63fd459411e102603a9fe:2ec49c1581c86943b16d22ce76578c64",
  "ruled 9895 stock": "3aab7b3f560f9b77dd44fc224db5953e",
  "ruled 2969140": "v2:a494d26ae7b2bf07c0d5f6b3d6c0d543:1243deff190636739d0fe1ee41e730ba:e88dcb4d77a3c951fb630a9e894cedf2",
  "ruled 2969140 stock": "90f2fb6027c2678fc65ca3d2ef0668fc",
  "ruled 14557721": "v2:2ec65ab9ff123d4ac1be052efde59a47:040e90d6e5493e8f55f78022764e2543:650d9a484b28e2c598c35c6dec4b69bb",
  "ruled 14557721 stock": "5351a3ed39ec6eb30ef8232601bf086f",
  "ruled 197796113": "v2:edc2ddb930bb51e60b09a22edab34e5f:0beba9e904bec58adee14b3ef74514a9:62c2f1d6b523b0d3119c939480440057",
  "ruled 197796113 stock": "01cc32d60700a0df3869145596ba7f5d",
  "ruled 204351833": "v2:d9db545db65e00be20d114c6d0269a60:1fb7b85f00ac789fc7382ea6a7c116f2:4f95f33abf4b709a3e74e1038f155e37",
  "ruled 204351833 stock": "b8c11b532a05945f0cc085bdf02d73fc",
  "ruled 300962284": "v2:f93de23579c951cab0e6a8cdc4e7903f:09ab3f27ac3039fcc2966fd897cd9dfd:ae786d818299b441fc9570285d843e7f",
  "ruled 300962284 stock": "8b12950b82fc544bd1f518521c100553",
  "ruled 1237958732": "v2:3c474a48c6d23b8af4d790b4e8d8a553:ec0de729c2c32a55ba78744f4eb3f6a2:ea0fc1a05e50814a7f7dc584dc517775",
  "ruled 1237958732 stock": "d8eee12edf71126d627e1163bc9e0f6d",
  "ruled 3428286737": "v2:ba4e893c38e00825bca00958e7fa53ea:030580668f8db59b645ff34dcaa854d2:0d72ffa12fdf3abc4852eed7be766cd0",
  "ruled 3428286737 stock": "ae86f13ee73f46389c099ed418d9de3c",
  "ruled 4353362426": "v2:1598e20e5e83708ff46f985422630234:6c7de1a73ac9a57730a70221c85cfaa2:d1f955ce9247263fb124b056a833d8e9",
  "ruled 4353362426 stock": "ebe09546f06c380bf0399d84cfa0aa39",
  "ruled 28991383635": "v2:2eabbfba2ba0dbce0757bccaaf8350bb:824ecbb953d798176a9f179743abf5d4:ef3530c615ab113bc46b854c33d6e28a",
  "ruled 28991383635 stock": "d735d1535b8f19d0bf47e6254d393039",
  "ruled 50417963109": "v2:523af91b13ca16eda514712ae24f6def:932f5aa9c7f730c50059ab75045f7e41:62c2f1d6b523b0d3119c939480440057",
  "ruled 50417963109 stock": "864346e4ea74eb035138f44b8e40891f",
  "ruled 50035160261184": "v2:2338b0ecade269292da1f63bb64749e6:5335d7e221dd9b2d742da341fa3fc958:0504cc75430143d3f1d7c75730f03de7",
  "ruled 50035160261184 stock": "36fdc4f898a5e3aeeb5664a6002abf8e",
  "ruled 257682379521213": "v2:8f63824a28bc2d1602acd2fd7b2fafb8:83d190351c7cd11daa8ac1db44377ff3:724040d0439adae60a8fb9d1ab6fe3a8",
  "ruled 257682379521213 stock": "d65bee7678d7b22fd6d4b6de80f597bd",
  "ruled 453778612044445": "v2:8458fcedc2632781d708000b4f38a585:071a9b4bd9f3bda93e18e195fbafce58:e71eaa27f62a892e4b60ec2285ca3c6b",
  "ruled 453778612044445 stock": "37a96ccd4af746a2a5bac0418b8d4788",
  "ruled 4946187872261089": "v2:b4cb347ca54681dfa8303a1aa73b0115:925bfb06ca714934e66a15405a7f7ae8:4d626a760be9dab537736c7ecc4ca9c8",
  "ruled 4946187872261089 stock": "4844c528cafb11c5ff7e905ef86ba526",
  "ruled 6761622471359678": "v2:8cd38ba6f3faa89ccc2c1481703088f3:7d735a45daeb7e52b581d77121ecc0c1:7a5dc066fc9b5c96da91f51499cd8cec",
  "ruled 6761622471359678 stock": "d180193b9c0f45f1ff00f9688ecc9c66",
  "ruled 9007199254740993": "v2:e2fd2567b693df6817ec9c702e07395d:af61f98ffda29cd3b165b6aba1ee19b1:77b6c413f003b92064446478c2fa05cf",
  "ruled 9007199254740993 stock": "70381539c0ddc7c71a5032087fe9b5f4",
  "ruled 9223372036854775807": "v2:eb427dd36d7393beee85905ffe826ed6:e917d2ae0b879de79d3d360b9ad04bd0:2373b422d396627294c7514938bfd205",
  "ruled 9223372036854775807 stock": "fb306bf0c85009f704318a5ad304a92b",
  "ruled 8000000000000000901": "v2:4c7bd42cd16ee89ba8b8911a452bea83:d0e6efaecc6f5bcd8eb72cc32a75587f:ea49f7bb05631b4d46c35476644bd6a8",
  "ruled 8000000000000000901 stock": "772a8b8f576df772bdacbbe2bb52fc1a",
  "ruled 8000000000000000902": "v2:6015785405b50fb65d46dfbdaa1c555d:989c4459158b686307631a28082d1ddd:4c9b64454be4518758a15e41c1d32a6b",
  "ruled 8000000000000000902 stock": "affbff2d6e0ac159903e07496b3ca606",
  "ruled 8000000000000000903": "v2:53a33e5baaa5ef7b340288a2a88fb523:29b44646190216b0d51a9c5031369ca4:4c9b64454be4518758a15e41c1d32a6b",
  "ruled 8000000000000000903 stock": "affbff2d6e0ac159903e07496b3ca606",
  "ruled 8000000000000000904": "v2:0bd94b7d952d541d92cbae89c5e97c63:c05e27ed9af40253844f9910dd498a4d:4c9b64454be4518758a15e41c1d32a6b",
  "ruled 8000000000000000904 stock": "affbff2d6e0ac159903e07496b3ca606",
  "ruled 8000000000000000905": "v2:0248d955f0fc7f1efa31881d3b5f86b6:34416a1594912ba1d2928aa81c3ded71:4c9b64454be4518758a15e41c1d32a6b",
  "ruled 8000000000000000905 stock": "affbff2d6e0ac159903e07496b3ca606",
}

describe("fingerprint golden values", () => {
  it("covers sandbox cards on sale and off, with and without sizes and crossed-out prices, and hostile cards", () => {
    const all = cards()
    expect(all.length).toBeGreaterThan(CARD_COUNT / 2)
    expect(all.some((c) => c.sizes.length === 0)).toBe(true)
    expect(all.some((c) => c.old_price)).toBe(true)
    expect(all.some((c) => c.id.length > 18)).toBe(true)
  })

  it("stays byte-identical for every card and context", () => {
    const actual = fingerprints()
    expect(actual).toEqual(GOLDEN)
  })
})
