-- A quote's offers move into the quote's row: they are written once with it and always read
-- with it, and eight rows (each with its key entry and foreign-key check) cost a quote more
-- than pricing it. Existing offers are carried over, cheapest (position 0) first.
ALTER TABLE `quotes` ADD `offers` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
UPDATE `quotes` SET `offers` = (
  SELECT json_group_array(json_object(
    'carrierSlug', `carrier_slug`, 'carrierName', `carrier_name`, 'annualCents', `annual_cents`,
    'monthlyCents', `monthly_cents`, 'coverage', `coverage`, 'deductible', `deductible`) ORDER BY `position`)
  FROM `quote_offers` WHERE `quote_offers`.`quote_id` = `quotes`.`id`
) WHERE EXISTS (SELECT 1 FROM `quote_offers` WHERE `quote_offers`.`quote_id` = `quotes`.`id`);--> statement-breakpoint
DROP TABLE `quote_offers`;
