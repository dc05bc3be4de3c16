package httpapi_test

import (
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/paygrid/payments/httpapi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLogs_MaskDeviceCodes: an agent's device code travels in the path of
// its status and redeem routes; neither the server log nor the request
// log (GET /sandbox/requests) keeps it: both show the path with the code
// masked.
func TestLogs_MaskDeviceCodes(t *testing.T) {
	s := moneyServer(t)
	cust := s.customer()
	c := s.do("POST", "/agents", map[string]any{"name": "Bot", "customerId": cust, "policy": policy(1000, 5000)})
	require.Equal(t, 201, c.Status, "%s", c.Raw)
	code := c.Body["deviceCode"].(map[string]any)["code"].(string)

	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	srv := httptest.NewServer(httpapi.New(s.eng, httpapi.Config{BasePath: base, Logger: logger}))
	defer srv.Close()
	v := *s
	v.http = srv
	assert.Equal(t, 200, v.do("GET", "/agents/device-codes/"+code+"/status", nil).Status)
	assert.Equal(t, 200, v.doAs("", "POST", "/agents/device-codes/"+code+"/redeem", nil).Status)
	assert.Equal(t, 404, v.doAs("", "POST", "/agents/device-codes/SERVICE-AGENT-GUESS/redeem", nil).Status)

	status, raw := getUnchecked(t, srv, s.cred, "/sandbox/requests")
	require.Equal(t, 200, status, "%s", raw)
	assert.NotContains(t, string(raw), code)
	assert.NotContains(t, string(raw), "GUESS")
	var page struct{ Data []httpapi.LoggedRequest }
	require.NoError(t, json.Unmarshal(raw, &page))
	require.Len(t, page.Data, 3)
	assert.Equal(t, base+"/agents/device-codes/****/redeem", page.Data[0].Path)
	assert.Equal(t, base+"/agents/device-codes/****/redeem", page.Data[1].Path)
	assert.Equal(t, base+"/agents/device-codes/****/status", page.Data[2].Path)

	// A request's line is written once it was answered: wait for the last.
	var paths []any
	require.Eventually(t, func() bool {
		paths = nil
		for _, l := range logs.lines(t) {
			if l["msg"] == "request" {
				paths = append(paths, l["path"])
			}
		}
		return len(paths) == 4
	}, 5*time.Second, 10*time.Millisecond)
	assert.Equal(t, []any{base + "/agents/device-codes/****/status", base + "/agents/device-codes/****/redeem",
		base + "/agents/device-codes/****/redeem", base + "/sandbox/requests"}, paths)
	all, err := json.Marshal(logs.lines(t))
	require.NoError(t, err)
	assert.NotContains(t, string(all), code, "the server log keeps no device code")
	assert.NotContains(t, string(all), "GUESS")
}
