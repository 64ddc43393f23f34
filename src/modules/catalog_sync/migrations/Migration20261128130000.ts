import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261128130000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "catalog_sync_settings" add column if not exists "alert_email" text null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "catalog_sync_settings" drop column if exists "alert_email";`)
  }
}
