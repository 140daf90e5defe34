-- Choices this dialect makes, recorded in every result under "choices" (one "-- name:" section
-- each, the text on the lines below it). Not SQL.

-- name: full_text
InnoDB FULLTEXT on TITLE/ACTOR, MATCH ... AGAINST ('+W1 +W2' IN BOOLEAN MODE): every word must occur (as PostgreSQL; DVD Store's MySQL driver used natural-language mode, any word)
