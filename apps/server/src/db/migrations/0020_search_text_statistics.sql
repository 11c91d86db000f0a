-- A searched staff list is planned for its pattern: the ordered list index for a common name,
-- the trigram index for a rare one. The choice rests on the estimated share of matching rows,
-- read from search_text's histogram; with the default 100 entries, one ANALYZE in eight at a
-- million cases misjudged "muller" by half and took the trigram bitmap (16 ms instead of 3.4).
-- A thousand entries keep the estimate within a few percent at the same planning time.
ALTER TABLE "cases" ALTER COLUMN "search_text" SET STATISTICS 1000;
