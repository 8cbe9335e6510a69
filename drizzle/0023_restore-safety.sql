CREATE TABLE "restore_file_switches" (
	"prefix" varchar(100) PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
