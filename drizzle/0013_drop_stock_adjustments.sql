-- The catalog's stock history reads stock_movements now (issue 14). No data step: 0010 copied every
-- earlier row into stock_movements (same id, its text as the note, actor and time), and since then the
-- inventory wrote each row together with its stock_movements twin (inventory-migration.test.ts checks both).
DROP TABLE "stock_adjustments" CASCADE;
