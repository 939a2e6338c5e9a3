CREATE TABLE "dashboard_active_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "dashboard_active_hourly_hour_user_id_pk" PRIMARY KEY("hour","user_id")
);
--> statement-breakpoint
CREATE TABLE "dashboard_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"metric" text NOT NULL,
	"k1" text DEFAULT '' NOT NULL,
	"k2" text DEFAULT '' NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	"sum" bigint DEFAULT 0 NOT NULL,
	"sum2" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_hourly_hour_metric_k1_k2_pk" PRIMARY KEY("hour","metric","k1","k2")
);
--> statement-breakpoint
CREATE TABLE "dashboard_rollup_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"rolled_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dashboard_rollup_state_one_row" CHECK ("dashboard_rollup_state"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "dashboard_seq_marks" (
	"taken_at" timestamp with time zone PRIMARY KEY NOT NULL,
	"postings_seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "books_reconcile_runs" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"ok" boolean NOT NULL,
	"checks" jsonb NOT NULL,
	"took_ms" integer NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "books_reconcile_runs_one_row" CHECK ("books_reconcile_runs"."id" = 1)
);
