// An order placed as a customer places one, for specs about what the sync does to open orders:
// the shop made able to ship (a fulfillment set on the sync's stock location, a service zone for
// Ukraine, a shipping option in uah: the sync sets up the location, channel, shipping profile, the
// region and its system payment provider), then the store API's checkout.
import { sql as query } from "./database"

/** An HTTP call to the app: GET without a body, POST with one. */
export type AppCall = (path: string, body?: unknown) => Promise<{ status: number; body: any }>

const ok = async (call: AppCall, path: string, body?: unknown) => {
  const res = await call(path, body)
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

/** The store API with the shop's publishable key (made by the sync's setup). */
export async function storeApiOf(appUrl: string, databaseUrl: string): Promise<AppCall> {
  const [{ token }] = await query(databaseUrl, "select token from api_key where type = 'publishable' and revoked_at is null order by created_at limit 1")
  return async (path, body) => {
    const res = await fetch(appUrl + path, {
      method: body === undefined ? "GET" : "POST",
      headers: { "x-publishable-api-key": token, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : null }
  }
}

/** Makes the shop able to ship from the sync's stock location; its id and the uah region's. */
export async function enableShipping(admin: AppCall, databaseUrl: string): Promise<{ locationId: string; regionId: string }> {
  const [{ id: regionId }] = await query(databaseUrl, "select id from region where currency_code = 'uah' and deleted_at is null")
  const [{ id: locationId }] = await query(
    databaseUrl,
    `select sl.id from stock_location sl join inventory_level l on l.location_id = sl.id where sl.deleted_at is null group by sl.id order by count(*) desc limit 1`
  )
  const [{ id: profileId }] = await query(
    databaseUrl,
    "select sp.id from shipping_profile sp join product_shipping_profile psp on psp.shipping_profile_id = sp.id and psp.deleted_at is null where sp.deleted_at is null limit 1"
  )
  await ok(admin, `/admin/stock-locations/${locationId}/fulfillment-providers`, { add: ["manual_manual"] })
  const { stock_location } = await ok(admin, `/admin/stock-locations/${locationId}/fulfillment-sets?fields=*fulfillment_sets`, {
    name: "Доставка",
    type: "shipping",
  })
  const { fulfillment_set } = await ok(admin, `/admin/fulfillment-sets/${stock_location.fulfillment_sets[0].id}/service-zones`, {
    name: "Україна",
    geo_zones: [{ type: "country", country_code: "ua" }],
  })
  await ok(admin, "/admin/shipping-options", {
    name: "Нова пошта",
    service_zone_id: fulfillment_set.service_zones[0].id,
    shipping_profile_id: profileId,
    provider_id: "manual_manual",
    price_type: "flat",
    type: { label: "Standard", description: "2-3 days", code: "standard" },
    prices: [{ currency_code: "uah", amount: 80 }],
    rules: [
      { attribute: "enabled_in_store", value: "true", operator: "eq" },
      { attribute: "is_return", value: "false", operator: "eq" },
    ],
  })
  return { locationId, regionId }
}

/** The store API's checkout of one of each variant: the order and its line items, by variant. */
export async function checkout(
  store: AppCall,
  databaseUrl: string,
  regionId: string,
  variantIds: string[]
): Promise<{ orderId: string; lineItemIds: string[] }> {
  const { cart } = await ok(store, "/store/carts", { region_id: regionId })
  for (const variant_id of variantIds) await ok(store, `/store/carts/${cart.id}/line-items`, { variant_id, quantity: 1 })
  const address = {
    first_name: "Олена",
    last_name: "Коваль",
    address_1: "Хрещатик 1",
    city: "Київ",
    country_code: "ua",
    postal_code: "01001",
    phone: "+380441234567",
  }
  await ok(store, `/store/carts/${cart.id}`, { email: "buyer@example.com", shipping_address: address, billing_address: address })
  const { shipping_options } = await ok(store, `/store/shipping-options?cart_id=${cart.id}`)
  if (!shipping_options.length) throw new Error("no shipping option for the cart")
  await ok(store, `/store/carts/${cart.id}/shipping-methods`, { option_id: shipping_options[0].id })
  const { payment_collection } = await ok(store, "/store/payment-collections", { cart_id: cart.id })
  await ok(store, `/store/payment-collections/${payment_collection.id}/payment-sessions`, { provider_id: "pp_system_default" })
  const done = await ok(store, `/store/carts/${cart.id}/complete`, {})
  if (done.type !== "order") throw new Error(`checkout ended as ${done.type}: ${JSON.stringify(done)}`)
  const lines = await query(
    databaseUrl,
    `select distinct li.id, li.variant_id from order_line_item li join order_item oi on oi.item_id = li.id where oi.order_id = $1 and li.deleted_at is null`,
    [done.order.id]
  )
  return { orderId: done.order.id, lineItemIds: variantIds.map((v) => lines.find((l) => l.variant_id === v)!.id) }
}
