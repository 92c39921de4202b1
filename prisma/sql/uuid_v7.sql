-- uuid_v7(): a time-ordered UUID (RFC 9562 version 7), PostgreSQL 18's uuidv7() where the server
-- has it, else the same layout built from gen_random_uuid(): the first 48 bits are the Unix time in
-- milliseconds, the version nibble becomes 7, the variant bits and the other 74 bits stay random.
-- Column defaults of schema.prisma call it; a migration creates it (and tests that build the
-- schema without the migrations run this file first).
DO $uuid_v7$
BEGIN
  IF current_setting('server_version_num')::int >= 180000 THEN
    CREATE OR REPLACE FUNCTION uuid_v7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS 'SELECT uuidv7()';
  ELSE
    CREATE OR REPLACE FUNCTION uuid_v7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $body$
      SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
        PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
    $body$;
  END IF;
END
$uuid_v7$;
