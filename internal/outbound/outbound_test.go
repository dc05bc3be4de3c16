package outbound_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/paygrid/payments/internal/outbound"
	"github.com/stretchr/testify/assert"
)

func TestRetryPolicy_Backoff(t *testing.T) {
	p := outbound.RetryPolicy{Initial: time.Second, Max: 10 * time.Second}
	assert.Equal(t, time.Second, p.Backoff(1))
	assert.Equal(t, 2*time.Second, p.Backoff(2))
	assert.Equal(t, 8*time.Second, p.Backoff(4))
	assert.Equal(t, 10*time.Second, p.Backoff(9))
}

// TestClassify: a failed send is told by its class only, the cause kept
// for the log and ErrPermanent still visible to errors.Is.
func TestClassify(t *testing.T) {
	ctx := context.Background()
	assert.NoError(t, outbound.Classify(ctx, outbound.Delivery{}, nil))
	cause := errors.New("dial tcp 10.0.0.7:8443: connection refused")
	err := outbound.Classify(ctx, outbound.Delivery{}, cause)
	assert.EqualError(t, err, "connection failed")
	assert.Equal(t, cause, outbound.Cause(err))
	assert.EqualError(t, outbound.Classify(ctx, outbound.Delivery{Status: 503}, cause), "receiver answered 5xx")
	refused := outbound.Classify(ctx, outbound.Delivery{}, outbound.ErrPermanent)
	assert.EqualError(t, refused, "endpoint refused: not a valid public URL")
	assert.ErrorIs(t, refused, outbound.ErrPermanent)
	assert.EqualError(t, outbound.Classify(ctx, outbound.Delivery{}, context.DeadlineExceeded), "timed out")
	assert.EqualError(t, outbound.TimedOut(cause), "timed out")
	assert.Equal(t, cause, outbound.Cause(cause), "an error not classified is its own cause")
}
