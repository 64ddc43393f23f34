import { Migration } from "@medusajs/framework/mikro-orm/migrations"

// Removals held until a run has read its last page (models/catalog-held-removal.ts), and the
// change log's record of what field locks kept out of a write (catalog_sync_run_change.held).
export class Migration20261128180000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "catalog_held_removal" ("id" text not null, "catalog_id" text not null, "product_id" text null, "source" text not null, "status" text not null, "held_by_run_id" text null, "paused_run_id" text null, "resolved_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "catalog_held_removal_pkey" primary key ("id"));`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_held_removal_deleted_at" ON "catalog_held_removal" ("deleted_at") WHERE deleted_at IS NULL;`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_catalog_held_removal_catalog_id_unique" ON "catalog_held_removal" ("catalog_id") WHERE deleted_at IS NULL AND status IN ('held', 'approved');`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_held_removal_status" ON "catalog_held_removal" ("status") WHERE deleted_at IS NULL;`)
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_catalog_held_removal_paused_run_id" ON "catalog_held_removal" ("paused_run_id") WHERE deleted_at IS NULL AND paused_run_id IS NOT NULL;`
    )
    this.addSql(`alter table if exists "catalog_sync_run_change" add column if not exists "held" jsonb null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "catalog_sync_run_change" drop column if exists "held";`)
    this.addSql(`drop table if exists "catalog_held_removal" cascade;`)
  }
}
