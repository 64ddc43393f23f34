import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261123191918 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "catalog_sync_run" drop constraint if exists "catalog_sync_run_mode_check";`)
    this.addSql(`alter table if exists "catalog_sync_run" drop constraint if exists "catalog_sync_run_status_check";`)

    this.addSql(`alter table if exists "catalog_sync_run" add column if not exists "brake" jsonb null, add column if not exists "brake_resolution" jsonb null;`)
    this.addSql(`alter table if exists "catalog_sync_run" add constraint "catalog_sync_run_mode_check" check("mode" in ('changes', 'full', 'reprice'));`)
    this.addSql(
      `alter table if exists "catalog_sync_run" add constraint "catalog_sync_run_status_check" check("status" in ('queued', 'running', 'paused', 'succeeded', 'failed', 'interrupted'));`
    )

    this.addSql(
      `alter table if exists "catalog_sync_settings" add column if not exists "pricing_rules" jsonb null, add column if not exists "pricing_rules_revision" integer not null default 0, add column if not exists "brake" jsonb null;`
    )

    this.addSql(`alter table if exists "catalog_sync_state" add column if not exists "brake_memory" jsonb null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "catalog_sync_run" drop constraint if exists "catalog_sync_run_mode_check";`)
    this.addSql(`alter table if exists "catalog_sync_run" drop constraint if exists "catalog_sync_run_status_check";`)

    this.addSql(`alter table if exists "catalog_sync_run" drop column if exists "brake", drop column if exists "brake_resolution";`)

    this.addSql(`alter table if exists "catalog_sync_run" add constraint "catalog_sync_run_mode_check" check("mode" in ('changes', 'full'));`)
    this.addSql(
      `alter table if exists "catalog_sync_run" add constraint "catalog_sync_run_status_check" check("status" in ('queued', 'running', 'succeeded', 'failed', 'interrupted'));`
    )

    this.addSql(
      `alter table if exists "catalog_sync_settings" drop column if exists "pricing_rules", drop column if exists "pricing_rules_revision", drop column if exists "brake";`
    )

    this.addSql(`alter table if exists "catalog_sync_state" drop column if exists "brake_memory";`)
  }
}
