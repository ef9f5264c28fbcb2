-- A quote's offers move into the quote's row: they are written once with it and always read
-- with it (see the SQLite migration 0011). Existing offers are carried over, cheapest first.
ALTER TABLE "quotes" ADD COLUMN "offers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
UPDATE "quotes" SET "offers" = o.offers FROM (
  SELECT "quote_id", jsonb_agg(jsonb_build_object(
    'carrierSlug', "carrier_slug", 'carrierName', "carrier_name", 'annualCents', "annual_cents",
    'monthlyCents', "monthly_cents", 'coverage', "coverage", 'deductible', "deductible") ORDER BY "position") AS offers
  FROM "quote_offers" GROUP BY "quote_id"
) AS o WHERE o."quote_id" = "quotes"."id";--> statement-breakpoint
DROP TABLE "quote_offers" CASCADE;
