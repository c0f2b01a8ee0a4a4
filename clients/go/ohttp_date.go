// The Date retry of the OHTTP mode (RFC 9458 §6.5, PROTOCOL.md §11): a gateway refuses an inner
// request whose Date is outside its window with an encapsulated 400 problem (code
// NEN_OHTTP_DATE) carrying its own Date. ObliviousTransport then keeps the difference as its
// clock skew for every later request and re-sends this one once, freshly encapsulated, only
// when its Date was *behind* the gateway's: such a request can never enter the window again.
// A request dated ahead may still become valid later (a relay holding it), so it is not re-sent:
// NEN_OHTTP_DATE (@nen/server claims its enc anyway, finding F9). A refusal without the gateway's
// Date (more than 1 h ahead) is not re-sent and teaches no skew.
//
// Pitfall: the refusal is authenticated (it is inside the encapsulated answer): a relay cannot
// forge one to move this client's clock.
package nen

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
)

// baseNow is the local clock (t.now in tests).
func (t *ObliviousTransport) baseNow() time.Time {
	if t.now != nil {
		return t.now()
	}
	return time.Now()
}

// clock is the local clock corrected by the skew learnt from the gateway.
func (t *ObliviousTransport) clock() time.Time {
	return t.baseNow().Add(time.Duration(t.skew.Load()))
}

// dateRefusal tells whether an opened answer is the gateway's Date refusal, and its Date (zero
// when absent). Any other answer is handed back unchanged (its body re-assembled when read).
func dateRefusal(res *http.Response) (time.Time, bool, error) {
	if res.StatusCode != http.StatusBadRequest || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/problem+json") {
		return time.Time{}, false, nil
	}
	orig := res.Body
	b, err := io.ReadAll(io.LimitReader(orig, 4096))
	if err != nil {
		orig.Close()
		return time.Time{}, false, err
	}
	var p struct {
		Code string `json:"code"`
	}
	if json.Unmarshal(b, &p) != nil || p.Code != "NEN_OHTTP_DATE" {
		res.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(b), orig), orig}
		return time.Time{}, false, nil
	}
	orig.Close()
	d, err := http.ParseTime(res.Header.Get("Date"))
	if err != nil {
		return time.Time{}, true, nil
	}
	return d, true, nil
}
