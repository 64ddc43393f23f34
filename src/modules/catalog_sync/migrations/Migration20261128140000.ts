import { Migration } from "@medusajs/framework/mikro-orm/migrations"

// Sizes and products the catalog removed while an open order reserved their stock: kept until
// nothing is reserved (models/catalog-pending-removal.ts).
export class Migration20261128140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "catalog_pending_removal" ("id" text not null, "kind" text check ("kind" in ('size', 'product')) not null, "subject_id" text not null, "product_id" text not null, "catalog_id" text null, "run_id" text null, "reason" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "catalog_pending_removal_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_catalog_pending_removal_subject_id_unique" ON "catalog_pending_removal" ("subject_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_pending_removal_product_id" ON "catalog_pending_removal" ("product_id") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_pending_removal_deleted_at" ON "catalog_pending_removal" ("deleted_at") WHERE deleted_at IS NULL;`)
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "catalog_pending_removal" cascade;`)
  }
}
