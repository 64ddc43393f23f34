import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261123223000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "catalog_sync_settings" add column if not exists "mirror_images" boolean not null default false;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "catalog_sync_settings" drop column if exists "mirror_images";`)
  }
}
