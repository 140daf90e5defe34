-- Choices this dialect makes, recorded in every result under "choices" (one "-- name:" section
-- each, the text on the lines below it). Not SQL.

-- name: full_text
GIN index on to_tsvector('simple', TITLE/ACTOR) matched with plainto_tsquery('simple', words): every word must occur (DVD Store's PostgreSQL semantics, with the 'simple' configuration on both sides)
