import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261121053246 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "catalog_product_map" drop constraint if exists "catalog_product_map_catalog_id_unique";`)
    this.addSql(`alter table if exists "catalog_brand_model" drop constraint if exists "catalog_brand_model_catalog_id_unique";`)
    this.addSql(`alter table if exists "catalog_brand" drop constraint if exists "catalog_brand_catalog_id_unique";`)
    this.addSql(
      `create table if not exists "catalog_brand" ("id" text not null, "catalog_id" text not null, "name" text not null, "slug" text null, "metadata" jsonb null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "catalog_brand_pkey" primary key ("id"));`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_brand_deleted_at" ON "catalog_brand" ("deleted_at") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_catalog_brand_catalog_id_unique" ON "catalog_brand" ("catalog_id") WHERE deleted_at IS NULL;`)

    this.addSql(
      `create table if not exists "catalog_brand_model" ("id" text not null, "catalog_id" text not null, "name" text not null, "slug" text null, "metadata" jsonb null, "brand_id" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "catalog_brand_model_pkey" primary key ("id"));`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_brand_model_brand_id" ON "catalog_brand_model" ("brand_id") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_brand_model_deleted_at" ON "catalog_brand_model" ("deleted_at") WHERE deleted_at IS NULL;`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_catalog_brand_model_catalog_id_unique" ON "catalog_brand_model" ("catalog_id") WHERE deleted_at IS NULL;`
    )

    this.addSql(
      `create table if not exists "catalog_product_map" ("id" text not null, "catalog_id" text not null, "product_id" text null, "sku" text null, "variant_ids" jsonb null, "inventory_item_ids" jsonb null, "fingerprint" text null, "stock_fingerprint" text null, "sync_version" integer null, "status" text not null default 'active', "last_run_id" text null, "last_seen_pass" text null, "synced_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "catalog_product_map_pkey" primary key ("id"));`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_product_map_deleted_at" ON "catalog_product_map" ("deleted_at") WHERE deleted_at IS NULL;`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_catalog_product_map_catalog_id_unique" ON "catalog_product_map" ("catalog_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_product_map_product_id" ON "catalog_product_map" ("product_id") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_product_map_last_seen_pass" ON "catalog_product_map" ("last_seen_pass") WHERE deleted_at IS NULL;`)

    this.addSql(
      `create table if not exists "catalog_sync_run" ("id" text not null, "trigger" text not null, "mode" text check ("mode" in ('changes', 'full')) not null, "status" text check ("status" in ('queued', 'running', 'succeeded', 'failed', 'interrupted')) not null default 'queued', "started_at" timestamptz null, "finished_at" timestamptz null, "pages" integer not null default 0, "items_seen" integer not null default 0, "created" integer not null default 0, "updated" integer not null default 0, "stock_only" integer not null default 0, "unchanged" integer not null default 0, "removed" integer not null default 0, "skipped" integer not null default 0, "swept" integer not null default 0, "requests_used" integer not null default 0, "error_code" text null, "error_message" text null, "rejected_items" jsonb null, "progress" jsonb null, "job_id" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "catalog_sync_run_pkey" primary key ("id"));`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_sync_run_deleted_at" ON "catalog_sync_run" ("deleted_at") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_sync_run_created_at" ON "catalog_sync_run" ("created_at") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_sync_run_status" ON "catalog_sync_run" ("status") WHERE deleted_at IS NULL;`)

    this.addSql(
      `create table if not exists "catalog_sync_settings" ("id" text not null, "base_url" text null, "api_key_encrypted" text null, "api_key_last4" text null, "api_key_hash" text null, "price_calculation" text check ("price_calculation" in ('min', 'avg', 'max')) not null default 'max', "markup_percent" text null, "discount_percent" text null, "old_price_markup_percent" text null, "poll_interval_minutes" integer not null default 10, "stock_location_id" text null, "sales_channel_id" text null, "removal_mode" text check ("removal_mode" in ('delete', 'draft')) not null default 'delete', "primary_language" text check ("primary_language" in ('uk', 'ru')) not null default 'uk', "enabled" boolean not null default true, "revision" integer not null default 1, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "catalog_sync_settings_pkey" primary key ("id"));`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_sync_settings_deleted_at" ON "catalog_sync_settings" ("deleted_at") WHERE deleted_at IS NULL;`)

    this.addSql(
      `create table if not exists "catalog_sync_state" ("id" text not null, "cursor" text null, "cursor_pricing" jsonb null, "phase" text not null default 'never', "full_pass_id" text null, "full_pass_started_at" timestamptz null, "last_full_pass_finished_at" timestamptz null, "current_run_id" text null, "blocked_code" text null, "blocked_message" text null, "blocked_revision" integer null, "reference_cache" jsonb null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "catalog_sync_state_pkey" primary key ("id"));`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_sync_state_deleted_at" ON "catalog_sync_state" ("deleted_at") WHERE deleted_at IS NULL;`)

    this.addSql(
      `alter table if exists "catalog_brand_model" add constraint "catalog_brand_model_brand_id_foreign" foreign key ("brand_id") references "catalog_brand" ("id") on update cascade on delete set null;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "catalog_brand_model" drop constraint if exists "catalog_brand_model_brand_id_foreign";`)

    this.addSql(`drop table if exists "catalog_brand" cascade;`)

    this.addSql(`drop table if exists "catalog_brand_model" cascade;`)

    this.addSql(`drop table if exists "catalog_product_map" cascade;`)

    this.addSql(`drop table if exists "catalog_sync_run" cascade;`)

    this.addSql(`drop table if exists "catalog_sync_settings" cascade;`)

    this.addSql(`drop table if exists "catalog_sync_state" cascade;`)
  }
}
