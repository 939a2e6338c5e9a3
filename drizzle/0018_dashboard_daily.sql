CREATE TABLE "dashboard_active_daily" (
	"day" timestamp with time zone NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "dashboard_active_daily_day_user_id_pk" PRIMARY KEY("day","user_id")
);
--> statement-breakpoint
CREATE TABLE "dashboard_daily" (
	"day" timestamp with time zone NOT NULL,
	"metric" text NOT NULL,
	"k1" text DEFAULT '' NOT NULL,
	"k2" text DEFAULT '' NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	"sum" bigint DEFAULT 0 NOT NULL,
	"sum2" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_daily_day_metric_k1_k2_pk" PRIMARY KEY("day","metric","k1","k2")
);
