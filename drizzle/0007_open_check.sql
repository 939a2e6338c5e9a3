-- Raises when `ok` is not true, with `reason` as the message and SQLSTATE PV001.
-- A buy-and-open is one statement (src/server/modules/shop/one-statement-open.ts): every check it
-- makes ends in this call, so any failed check rolls back everything the statement already wrote
-- (money, stock, packs, cards) and tells the app why, in a single round trip.
CREATE FUNCTION "packvault_check"("ok" boolean, "reason" text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF "ok" IS NOT TRUE THEN
    RAISE EXCEPTION USING ERRCODE = 'PV001', MESSAGE = "reason";
  END IF;
  RETURN true;
END $$;
