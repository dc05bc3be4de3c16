package dashboard_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A small client of the Chrome DevTools Protocol over Chromium's debugging
// pipe (--remote-debugging-pipe: the browser reads commands from its file
// descriptor 3 and writes answers and events to 4, each a JSON message
// ended by a NUL byte). No websocket and no module beyond the standard
// library: enough to open pages, click with the mouse, type, read the DOM,
// resize the viewport and take screenshots, as a person would.

// cdpMessage is a command's answer or an event.
type cdpMessage struct {
	ID        int             `json:"id"`
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	Result    json.RawMessage `json:"result"`
	SessionID string          `json:"sessionId"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// tab is one page of a headless Chromium driven over its debugging pipe.
type tab struct {
	t       *testing.T
	cmd     *exec.Cmd
	in      io.WriteCloser // the browser's fd 3
	session string         // the page's CDP session

	mu      sync.Mutex
	next    int
	pending map[int]chan cdpMessage
	events  chan cdpMessage // every event, for waitEvent; full: dropped
	dead    chan struct{}   // closed when the browser's pipe ends
}

// open starts Chromium with its debugging pipe and opens a blank page. It
// is closed when the test ends.
func (b *browser) open(t *testing.T) *tab {
	t.Helper()
	toBrowser, in, err := os.Pipe()
	require.NoError(t, err)
	out, fromBrowser, err := os.Pipe()
	require.NoError(t, err)
	args := append(b.flags(), "--remote-debugging-pipe", "about:blank")
	cmd := exec.Command(b.bin, args...)
	cmd.ExtraFiles = []*os.File{toBrowser, fromBrowser} // fds 3 and 4
	require.NoError(t, cmd.Start())
	_ = toBrowser.Close()
	_ = fromBrowser.Close()
	p := &tab{t: t, cmd: cmd, in: in, pending: map[int]chan cdpMessage{}, events: make(chan cdpMessage, 256), dead: make(chan struct{})}
	go p.read(out)
	t.Cleanup(p.close)

	var target struct{ TargetID string }
	p.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var attached struct{ SessionID string }
	p.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached)
	p.session = attached.SessionID
	p.do("Page.enable", nil)
	p.do("Runtime.enable", nil)
	return p
}

// read dispatches the browser's messages until its pipe ends.
func (p *tab) read(r io.ReadCloser) {
	defer close(p.dead)
	defer r.Close()
	br := bufio.NewReader(r)
	for {
		raw, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var m cdpMessage
		if json.Unmarshal(raw[:len(raw)-1], &m) != nil {
			continue
		}
		if m.ID == 0 {
			select {
			case p.events <- m:
			default:
			}
			continue
		}
		p.mu.Lock()
		ch := p.pending[m.ID]
		delete(p.pending, m.ID)
		p.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
}

// close ends the browser.
func (p *tab) close() {
	_ = p.in.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}

// call sends method with params to session ("" for the browser) and
// decodes its result into out (when not nil); it fails the test on an
// error or after 30 seconds.
func (p *tab) call(session, method string, params, out any) {
	p.t.Helper()
	require.NoError(p.t, p.try(session, method, params, out), "%s", method)
}

// try is call returning the error.
func (p *tab) try(session, method string, params, out any) error {
	if params == nil {
		params = map[string]any{}
	}
	p.mu.Lock()
	p.next++
	id := p.next
	ch := make(chan cdpMessage, 1)
	p.pending[id] = ch
	p.mu.Unlock()
	msg := map[string]any{"id": id, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if _, err := p.in.Write(append(b, 0)); err != nil {
		return err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %s (%d)", method, m.Error.Message, m.Error.Code)
		}
		if out != nil {
			return json.Unmarshal(m.Result, out)
		}
		return nil
	case <-p.dead:
		return fmt.Errorf("%s: the browser ended", method)
	case <-time.After(30 * time.Second):
		return fmt.Errorf("%s: no answer in 30 s", method)
	}
}

// do calls method on the page.
func (p *tab) do(method string, params any) {
	p.t.Helper()
	p.call(p.session, method, params, nil)
}

// eval evaluates the JavaScript expression expr in the page (DevTools'
// evaluation, which the pages' no-script policy does not concern) and
// decodes its value into out (when not nil).
func (p *tab) eval(expr string, out any) {
	p.t.Helper()
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	p.call(p.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res)
	require.Nil(p.t, res.ExceptionDetails, "evaluating %s", expr)
	if out != nil {
		require.NoError(p.t, json.Unmarshal(res.Result.Value, out), "evaluating %s: %s", expr, res.Result.Value)
	}
}

// text returns the text of the first element matching the CSS selector
// sel, "" when none does.
func (p *tab) text(sel string) string {
	p.t.Helper()
	var s string
	p.eval(fmt.Sprintf(`(document.querySelector(%q) || {innerText: ""}).innerText`, sel), &s)
	return s
}

// html returns the page's DOM as the browser built it.
func (p *tab) html() string {
	p.t.Helper()
	var s string
	p.eval(`document.documentElement.outerHTML`, &s)
	return s
}

// url returns the page's address.
func (p *tab) url() string {
	p.t.Helper()
	var s string
	p.eval(`location.href`, &s)
	return s
}

// navigate opens u and waits for the page to load.
func (p *tab) navigate(u string) {
	p.t.Helper()
	p.loads(func() { p.do("Page.navigate", map[string]any{"url": u}) })
}

// loads runs act (a navigation, a click that sends a form) and waits until
// the page it leads to has loaded: a page marked before act has been
// replaced, and the new one is complete.
func (p *tab) loads(act func()) {
	p.t.Helper()
	p.eval(`window.__before = true`, nil)
	act()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		// Evaluations fail while the old page goes: try again.
		var res struct {
			Result struct {
				Value bool `json:"value"`
			} `json:"result"`
		}
		err := p.try(p.session, "Runtime.evaluate", map[string]any{"returnByValue": true,
			"expression": `window.__before !== true && document.readyState === "complete"`}, &res)
		if err == nil && res.Result.Value {
			return
		}
		select {
		case <-ctx.Done():
			p.t.Fatalf("the page did not load in 30 s (at %s)", p.url())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// click moves the mouse over the first element matching sel (scrolled into
// view) and clicks it with the left button.
func (p *tab) click(sel string) {
	p.t.Helper()
	var at []float64
	p.eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return null;
		e.scrollIntoView({block: "center", inline: "center"}); const r = e.getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel), &at)
	require.Len(p.t, at, 2, "no element %s on %s", sel, p.url())
	for _, ev := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		p.do("Input.dispatchMouseEvent", map[string]any{"type": ev, "x": at[0], "y": at[1], "button": "left", "clickCount": 1})
	}
}

// clickLoads clicks sel and waits for the page it leads to.
func (p *tab) clickLoads(sel string) {
	p.t.Helper()
	p.loads(func() { p.click(sel) })
}

// typeInto clicks the field sel and types text into it.
func (p *tab) typeInto(sel, text string) {
	p.t.Helper()
	p.click(sel)
	p.do("Input.insertText", map[string]any{"text": text})
}

// viewport emulates a screen width×height CSS pixels wide (mobile: a
// phone's, with its viewport meta tag honoured).
func (p *tab) viewport(width, height int, mobile bool) {
	p.t.Helper()
	p.do("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
}

// screenshot saves the viewport as a PNG file.
func (p *tab) screenshot(file string) {
	p.t.Helper()
	var shot struct{ Data string }
	p.call(p.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot)
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	require.NoError(p.t, err)
	require.True(p.t, len(png) > 8 && string(png[1:4]) == "PNG", "%s is not a PNG", file)
	require.NoError(p.t, os.WriteFile(file, png, 0o644))
}

// cookies returns the browser's cookies by name.
func (p *tab) cookies() map[string]string {
	p.t.Helper()
	var res struct {
		Cookies []struct{ Name, Value string }
	}
	p.call(p.session, "Network.getCookies", nil, &res)
	out := map[string]string{}
	for _, c := range res.Cookies {
		out[c.Name] = c.Value
	}
	return out
}

// contains reports whether the page's text holds s.
func (p *tab) contains(s string) bool {
	p.t.Helper()
	return strings.Contains(p.text("body"), s)
}
