package payments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"github.com/paygrid/payments/validate"
)

// TableIdempotency holds idempotency records.
const TableIdempotency = "idempotency"

// MaxIdempotencyKeyLength is the longest accepted key (spec section 8).
const MaxIdempotencyKeyLength = 255

// Response is the outcome of an idempotent operation as the caller will
// replay it: for the HTTP layer a status code and the encoded body.
type Response struct {
	Status int    `json:"status"`
	Body   []byte `json:"body,omitempty"` // exact bytes, replayed verbatim
}

// idempotencyRecord remembers one key: the hash of the request that claimed
// it and, once finished, the response to replay.
type idempotencyRecord struct {
	Hash      string    `json:"hash"`
	Done      bool      `json:"done"`
	Response  Response  `json:"response"`
	CreatedAt time.Time `json:"createdAt"`
}

// pendingLease bounds how long a claimed-but-unfinished key blocks others.
// Past it (the process died mid-request) the key answers CONFLICT rather than
// running the operation a second time.
const pendingLease = time.Minute

// Idempotent runs do at most once per (scope, key) within the retention
// window. request is the canonical request (for HTTP: method, path and body);
// its hash is stored with the key.
//
// The first call claims the key, runs do and stores its Response; repeating
// the same key with the same request replays that Response (replayed true)
// without running do. The same key with another request is CONFLICT and
// changes nothing. Concurrent calls with one key wait for the first to finish
// and then replay it. A Response with status >= 500 is not stored, so the
// request can be retried. An empty key runs do directly.
func (e *Engine) Idempotent(ctx context.Context, scope, key string, request []byte, do func() Response) (resp Response, replayed bool, err error) {
	if key == "" {
		return do(), false, nil
	}
	if len(key) > MaxIdempotencyKeyLength {
		var fe validate.Errors
		fe.MaxLen("Idempotency-Key", key, MaxIdempotencyKeyLength)
		return Response{}, false, Invalid(fe)
	}
	sum := sha256.Sum256(request)
	hash := hex.EncodeToString(sum[:])
	rkey := scope + "\x00" + key
	wait := time.Millisecond
	for {
		var rec idempotencyRecord
		claimed := false
		err := e.update(ctx, func(t *txn) error {
			err := getJSON(t, TableIdempotency, rkey, &rec)
			if err == nil && e.Now().Sub(rec.CreatedAt) < e.cfg.IdempotencyRetention {
				return nil
			}
			if err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
			rec = idempotencyRecord{Hash: hash, CreatedAt: e.Now()}
			claimed = true
			return putJSON(t, TableIdempotency, rkey, rec)
		})
		if err != nil {
			return Response{}, false, err
		}
		switch {
		case rec.Hash != hash:
			return Response{}, false, Errorf(CodeConflict, "Idempotency-Key %q was already used with a different request", key)
		case claimed:
			return e.finishIdempotent(ctx, rkey, rec, do())
		case rec.Done:
			return rec.Response, true, nil
		case e.Now().Sub(rec.CreatedAt) > pendingLease:
			return Response{}, false, Errorf(CodeConflict, "the request with Idempotency-Key %q was interrupted; use a new key", key)
		}
		select {
		case <-ctx.Done():
			return Response{}, false, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(wait*2, 50*time.Millisecond)
	}
}

func (e *Engine) finishIdempotent(ctx context.Context, rkey string, rec idempotencyRecord, resp Response) (Response, bool, error) {
	err := e.update(context.WithoutCancel(ctx), func(t *txn) error {
		if resp.Status >= 500 {
			return t.Delete(TableIdempotency, rkey)
		}
		rec.Done, rec.Response = true, resp
		return putJSON(t, TableIdempotency, rkey, rec)
	})
	return resp, false, err
}

// purgeIdempotency deletes records past the retention window, at most once a
// minute.
func (e *Engine) purgeIdempotency(ctx context.Context) {
	now := e.Now()
	if now.Sub(e.lastPurge) < time.Minute {
		return
	}
	e.lastPurge = now
	var expired []string
	_ = e.store.View(ctx, func(tx Tx) error {
		return tx.Scan(TableIdempotency, ScanOptions{}, func(k string, v []byte) (bool, error) {
			var r idempotencyRecord
			if json.Unmarshal(v, &r) == nil && now.Sub(r.CreatedAt) >= e.cfg.IdempotencyRetention {
				expired = append(expired, k)
			}
			return true, nil
		})
	})
	if len(expired) == 0 {
		return
	}
	err := e.store.Update(ctx, func(tx Tx) error {
		for _, k := range expired {
			if err := tx.Delete(TableIdempotency, k); err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
		}
		return nil
	})
	if err != nil {
		e.log.Warn("idempotency purge failed", "err", err)
	}
}
