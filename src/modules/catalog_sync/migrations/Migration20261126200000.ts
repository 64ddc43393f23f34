import { Migration } from "@medusajs/framework/mikro-orm/migrations"

// The plugin's two tables that every changes page rewrites row by row (each size's cost, each
// product's map row) keep 30 % of each page free, so an update can write the row's new version
// beside the old one and leave the indexes alone (a HOT update). That holds when no indexed
// column changes, as in a changes run (a full pass sets the map's indexed last_seen_pass, so its
// map updates still touch the indexes). With full pages nearly every cost-row update touched
// every index. Rows already stored move to pages with room when next updated.
export class Migration20261126200000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "catalog_variant_cost" set (fillfactor = 70);`)
    this.addSql(`alter table if exists "catalog_product_map" set (fillfactor = 70);`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "catalog_variant_cost" reset (fillfactor);`)
    this.addSql(`alter table if exists "catalog_product_map" reset (fillfactor);`)
  }
}
