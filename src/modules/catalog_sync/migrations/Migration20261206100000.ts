import { Migration } from "@medusajs/framework/mikro-orm/migrations"

// A run's failure class beside its raw error code (src/sync/failure-class.ts): what decides
// retry, resume or stop, kept so the admin and the tests see why a run ended as it did.
export class Migration20261206100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "mcs_sync_run" add column if not exists "error_class" text null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "mcs_sync_run" drop column if exists "error_class";`)
  }
}
