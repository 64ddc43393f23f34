#!/usr/bin/env bash
# Renames the plugin's own tables catalog_* -> mcs_* everywhere they are named as tables
# (models, SQL, specs, benches, docs), leaving Query/entity names (catalog_brand.*, the
# catalog_sync module, link tables product_product_catalog_sync_*) alone. Idempotent: run it
# again after a merge brings in SQL that names the old tables. Migrations up to the renaming
# one (Migration20261128200000) keep the old names: they run before it on a new database.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
git ls-files -z -- '*.ts' '*.tsx' '*.js' '*.md' '*.sh' '*.json' \
  ':!:README.md' ':!:package.json' ':!:package-lock.json' ':!:scripts/rename-plugin-tables.sh' |
  xargs -0 perl -0777 -i -pe '
    BEGIN { $all = "brand_model|brand|field_lock|held_removal|mirrored_image_ref|mirrored_image|pending_removal|product_map|sync_run_change|sync_run|sync_settings|sync_state|variant_cost";
            $own = "field_lock|held_removal|mirrored_image_ref|mirrored_image|pending_removal|product_map|sync_run_change|sync_run|sync_settings|sync_state|variant_cost" }
    my $f = $ARGV;
    if ($f =~ m{/migrations/Migration(\d+)\.ts$}) {
      # Earlier migrations keep the old names; later ones are SQL only.
      if ($1 > 20261128200000) { s/(?<![A-Za-z0-9])catalog_($all)(?=[_"\\\s;.,)]|$)/mcs_$1/g }
    } elsif ($f =~ m{/migrations/\.snapshot[^/]*\.json$}) {
      s/(?<![A-Za-z0-9])catalog_($all)(?=[_"\\])/mcs_$1/g;
    } else {
      # Models: the entity keeps its name (services, links, Query), the table takes the new one.
      s/\.define\("catalog_($all)"/.define({ name: "catalog_$1", tableName: "mcs_$1" }/g;
      # Tables only the plugin names (never an entity or field name outside its model).
      s/(?<![A-Za-z0-9_])(?<!\{ name: ")(?<!resource_type: ")(?<!resource_type` `)catalog_($own)(?![A-Za-z0-9_])/mcs_$1/g;
      # Brand tables: only where SQL names a table (elsewhere catalog_brand is the Query entity).
      s/\b((?:from|join|into|update|references|table(?: if (?:not )?exists)?)\s+"?)catalog_(brand_model|brand)(?![A-Za-z0-9_])/$1mcs_$2/gi;
      s/(linkedRecords\([^,()]+,\s*")catalog_(brand_model|brand)"/$1mcs_$2"/g;
    }
  '
