import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261123153322 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "catalog_variant_cost" drop constraint if exists "catalog_variant_cost_catalog_id_size_key_unique";`)
    this.addSql(
      `create table if not exists "catalog_variant_cost" ("id" text not null, "catalog_id" text not null, "size_key" text not null, "variant_id" text null, "cost" text null, "price_calculation" text check ("price_calculation" in ('min', 'avg', 'max')) not null, "category_id" text null, "category_path" jsonb null, "brand_id" text null, "amount" text null, "crossed_out_amount" text null, "priced_revision" integer null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "catalog_variant_cost_pkey" primary key ("id"));`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_variant_cost_deleted_at" ON "catalog_variant_cost" ("deleted_at") WHERE deleted_at IS NULL;`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_catalog_variant_cost_catalog_id_size_key_unique" ON "catalog_variant_cost" ("catalog_id", "size_key") WHERE deleted_at IS NULL;`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_variant_cost_variant_id" ON "catalog_variant_cost" ("variant_id") WHERE deleted_at IS NULL;`)
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "catalog_variant_cost" cascade;`)
  }
}
