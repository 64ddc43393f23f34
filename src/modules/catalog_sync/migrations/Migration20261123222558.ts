import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261123222558 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "catalog_field_lock" drop constraint if exists "catalog_field_lock_product_id_unique";`)
    this.addSql(
      `create table if not exists "catalog_field_lock" ("id" text not null, "product_id" text not null, "catalog_id" text null, "lock" jsonb null, "unlock" jsonb null, "held" jsonb null, "held_at" timestamptz null, "written" jsonb null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "catalog_field_lock_pkey" primary key ("id"));`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_field_lock_deleted_at" ON "catalog_field_lock" ("deleted_at") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_catalog_field_lock_product_id_unique" ON "catalog_field_lock" ("product_id") WHERE deleted_at IS NULL;`)

    this.addSql(`alter table if exists "catalog_sync_settings" add column if not exists "field_locks" jsonb null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "catalog_field_lock" cascade;`)

    this.addSql(`alter table if exists "catalog_sync_settings" drop column if exists "field_locks";`)
  }
}
