import { Migration } from "@medusajs/framework/mikro-orm/migrations";

// The plugin's two tables that every changes page rewrites row by row (each size's cost, each
// product's map row) keep 30 % of each page free, so an update can write the row's new version
// beside the old one and leave the indexes alone (a HOT update). That holds when no indexed
// column changes, as in a changes run (a full pass sets the map's indexed last_seen_pass, so its
// map updates still touch the indexes). Full pages made about 19 of 20 cost-row updates touch
// every index: a page's 700 cost rows took 20 to 23 ms, against 15.5 to 17 ms with room
// (measured on 22,000 rows). Rows already stored move to pages with room when next updated.
export class Migration20261126200000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "catalog_variant_cost" set (fillfactor = 70);`);
    this.addSql(`alter table if exists "catalog_product_map" set (fillfactor = 70);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "catalog_variant_cost" reset (fillfactor);`);
    this.addSql(`alter table if exists "catalog_product_map" reset (fillfactor);`);
  }

}
