package main

import (
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseFlags_EventHistoryRetention: -event-history-retention is 7
// days by default, 0 (every event kept) or at least a minute; another
// value stops the start with an error naming the flag.
func TestParseFlags_EventHistoryRetention(t *testing.T) {
	env := func(string) string { return "" }
	o, err := parseFlags(nil, env, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, 7*24*time.Hour, o.eventHistoryRetention)
	assert.Equal(t, 7*24*time.Hour, engineConfig(o, nil, nil, nil).EventHistoryRetention)
	o, err = parseFlags([]string{"-event-history-retention", "0"}, env, io.Discard)
	require.NoError(t, err)
	assert.Negative(t, engineConfig(o, nil, nil, nil).EventHistoryRetention, "0 keeps every event: a negative Config value")
	for _, bad := range []string{"-1h", "30s", "soon"} {
		_, err := parseFlags([]string{"-event-history-retention", bad}, env, io.Discard)
		assert.ErrorContains(t, err, "event-history-retention", bad)
	}
}

// TestRun_EventHistoryRetention: with -event-history-retention 1h, GET
// /sandbox/webhooks stops listing an event an hour after its delivery
// ended on the sandbox clock, and keeps listing younger ones.
func TestRun_EventHistoryRetention(t *testing.T) {
	base, _ := serve(t, "-event-history-retention", "1h")
	cred := "dash-client:dash-secret-0123456789"
	status, accts := call(t, cred, "GET", base+"/platform/internal-accounts", "")
	require.Equal(t, 200, status)
	acct := accts["data"].([]any)[0].(map[string]any)["id"].(string)
	// amounts lists the balances of the account's BALANCE_UPDATED events in
	// the history, oldest first (no endpoint is configured: each is kept
	// NOT_SENT as it is emitted).
	amounts := func() []float64 {
		status, page := call(t, cred, "GET", base+"/sandbox/webhooks?sortOrder=asc&type=INTERNAL_ACCOUNT.BALANCE_UPDATED&resource="+acct, "")
		require.Equal(t, 200, status, "%v", page)
		var out []float64
		for _, d := range page["data"].([]any) {
			data := d.(map[string]any)["event"].(map[string]any)["data"].(map[string]any)
			out = append(out, data["balance"].(map[string]any)["amount"].(float64))
		}
		return out
	}
	fund := func(amount string) {
		status, body := call(t, cred, "POST", base+"/sandbox/internal-accounts/"+acct+"/fund", `{"amount":`+amount+`}`)
		require.Equal(t, 200, status, "%v", body)
	}
	advance := func(d string) {
		status, body := call(t, cred, "POST", base+"/sandbox/clock/advance", `{"duration":"`+d+`"}`)
		require.Equal(t, 200, status, "%v", body)
	}
	fund("100")
	advance("30m")
	fund("50")
	require.Equal(t, []float64{100, 150}, amounts())
	advance("31m") // the first event ended 61 minutes ago, the second 31
	require.Eventually(t, func() bool { return len(amounts()) == 1 }, 10*time.Second, 20*time.Millisecond, "the older event leaves the history")
	assert.Equal(t, []float64{150}, amounts(), "the younger one stays")
}
