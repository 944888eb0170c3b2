-- An envelope is stored without the documents it carries (their bytes are in documents.xml): envelopes.xml holds
-- its skeleton and layout says where each document's slice goes back (src/db/envelope-layout.ts). Rows without a
-- layout — every envelope stored before this migration — keep the whole envelope in xml.
ALTER TABLE "envelopes" ADD COLUMN "layout" jsonb;
