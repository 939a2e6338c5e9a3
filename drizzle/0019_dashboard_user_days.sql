CREATE TABLE "dashboard_user_days" (
	"user_id" text PRIMARY KEY NOT NULL,
	"last_day" integer NOT NULL,
	"days" integer[] NOT NULL
);
--> statement-breakpoint
CREATE INDEX "dashboard_user_days_last_idx" ON "dashboard_user_days" USING btree ("last_day");