package pgstore

import (
	"context"
	"time"
)

// Claim implements payments.Claimer in one statement: a lease row is taken
// when absent, expired, or already owner's, by the database's clock.
func (s *Store) Claim(ctx context.Context, owner string, ttl time.Duration, names []string) (_ []string, err error) {
	defer func() { err = unavailable(ctx, err) }()
	c, err := s.conn(ctx)
	if err != nil {
		return nil, err
	}
	defer s.pool.release(c, false)
	s.stat(1, 1)
	rows, err := c.Query(ctx, `INSERT INTO payments_leases AS l (name, owner, expires_at)
		SELECT n, $2, clock_timestamp() + $3::bigint * interval '1 microsecond' FROM unnest($1::text[]) AS n
		ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
		WHERE l.owner = excluded.owner OR l.expires_at < clock_timestamp()
		RETURNING name`, names, owner, ttl.Microseconds())
	if err != nil {
		return nil, err
	}
	var got []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, err
		}
		got = append(got, n)
	}
	return got, rows.Err()
}

// Release implements payments.Claimer.
func (s *Store) Release(ctx context.Context, owner string, names []string) (err error) {
	defer func() { err = unavailable(ctx, err) }()
	c, err := s.conn(ctx)
	if err != nil {
		return err
	}
	defer s.pool.release(c, false)
	s.stat(1, 1)
	_, err = c.Exec(ctx, "DELETE FROM payments_leases WHERE owner = $1 AND name = ANY($2::text[])", owner, names)
	return err
}
