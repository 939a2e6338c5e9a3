ALTER TYPE "public"."notification_kind" ADD VALUE 'market_listing' BEFORE 'security';--> statement-breakpoint
ALTER TABLE "market_listings" ADD COLUMN "removed_by" text;--> statement-breakpoint
ALTER TABLE "market_listings" ADD COLUMN "removed_reason" text;