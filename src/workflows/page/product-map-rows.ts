// The product map's SQL lives behind the data module (src/modules/catalog_sync/sql/product-map.ts);
// this path stays for the run's page writer, which imports it from here.
export { MAP_ROW_COLUMNS, PRODUCT_MAP_TABLE, insertMapRows, readMapRows, setMapColumn, updateMapRows, type MapRowValues } from "../../modules/catalog_sync/sql/product-map"
