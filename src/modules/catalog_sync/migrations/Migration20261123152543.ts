import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261123152543 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "catalog_mirrored_image_ref" drop constraint if exists "catalog_mirrored_image_ref_catalog_id_source_url_unique";`)
    this.addSql(`alter table if exists "catalog_mirrored_image" drop constraint if exists "catalog_mirrored_image_source_url_unique";`)
    this.addSql(
      `create table if not exists "catalog_mirrored_image" ("id" text not null, "source_url" text not null, "content_hash" text null, "file_id" text null, "shop_url" text null, "mime_type" text null, "size_bytes" integer null, "failure_count" integer not null default 0, "last_error" text null, "next_attempt_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "catalog_mirrored_image_pkey" primary key ("id"));`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_mirrored_image_deleted_at" ON "catalog_mirrored_image" ("deleted_at") WHERE deleted_at IS NULL;`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_catalog_mirrored_image_source_url_unique" ON "catalog_mirrored_image" ("source_url") WHERE deleted_at IS NULL;`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_mirrored_image_content_hash" ON "catalog_mirrored_image" ("content_hash") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_catalog_mirrored_image_file_id" ON "catalog_mirrored_image" ("file_id") WHERE deleted_at IS NULL;`)

    this.addSql(
      `create table if not exists "catalog_mirrored_image_ref" ("id" text not null, "catalog_id" text not null, "source_url" text not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "catalog_mirrored_image_ref_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_catalog_mirrored_image_ref_deleted_at" ON "catalog_mirrored_image_ref" ("deleted_at") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_catalog_mirrored_image_ref_catalog_id_source_url_unique" ON "catalog_mirrored_image_ref" ("catalog_id", "source_url") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_catalog_mirrored_image_ref_source_url" ON "catalog_mirrored_image_ref" ("source_url") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "catalog_mirrored_image" cascade;`)

    this.addSql(`drop table if exists "catalog_mirrored_image_ref" cascade;`)
  }
}
