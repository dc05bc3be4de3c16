-- The objects a column's value names (a currency's, by its code: the
-- engine.Column's Object), each kept once per record table, column and
-- value, as the first process to write the value first saw it, and never
-- changed once written: a record table's doc leaves such an object out
-- where its bytes are these, and the store reads them back from here
-- (doc.go). obj is the object's JSON exactly as written.
CREATE TABLE payments_doc_objects (
	tbl text NOT NULL,
	col text NOT NULL,
	val text NOT NULL,
	obj text NOT NULL,
	PRIMARY KEY (tbl, col, val)
);
