-- The SII unit of the issuer's jurisdiction, printed under the PDF's box ("S.I.I. - SANTIAGO ORIENTE"); the comuna
-- is printed when it is null.
ALTER TABLE "businesses" ADD COLUMN "unidad_sii" text;
