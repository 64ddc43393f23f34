import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261123152501 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "catalog_sync_run_change" ("id" text not null, "run_id" text not null, "catalog_id" text null, "product_id" text null, "title" text null, "kind" text check ("kind" in ('created', 'updated', 'removed', 'drafted', 'rejected')) not null, "price_changed" boolean not null default false, "stock_changed" boolean not null default false, "sizes_changed" boolean not null default false, "images_changed" boolean not null default false, "text_changed" boolean not null default false, "price_before" text null, "price_after" text null, "reason" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "catalog_sync_run_change_pkey" primary key ("id"));`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_sync_run_change_deleted_at" ON "catalog_sync_run_change" ("deleted_at") WHERE deleted_at IS NULL;`)
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_catalog_sync_run_change_run_id_kind" ON "catalog_sync_run_change" ("run_id", "kind") WHERE deleted_at IS NULL;`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_sync_run_change_catalog_id" ON "catalog_sync_run_change" ("catalog_id") WHERE deleted_at IS NULL;`)
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_catalog_sync_run_change_product_id_created_at" ON "catalog_sync_run_change" ("product_id", "created_at") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "catalog_sync_run_change" cascade;`)
  }
}
