import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261123224500 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "catalog_sync_settings" add column if not exists "filter" jsonb null;`)
    this.addSql(`alter table if exists "catalog_sync_state" add column if not exists "applied_filter" jsonb null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "catalog_sync_settings" drop column if exists "filter";`)
    this.addSql(`alter table if exists "catalog_sync_state" drop column if exists "applied_filter";`)
  }
}
