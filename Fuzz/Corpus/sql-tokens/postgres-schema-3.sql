
CREATE TABLE schema_migrations (
    version bigint NOT NULL,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at text NOT NULL,
    CONSTRAINT schema_migrations_pkey PRIMARY KEY (version)
);