package webhookverify_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/giftwell/giftwell/webhookverify"
)

// A receiver verifies the raw body against the signature header before
// parsing it.
func ExampleVerify() {
	secret := "5f0c8d3e7a9b21c4d6e8f0a1b3c5d7e9f1a2b4c6d8e0f2a4b6c8d0e2f4a6b8c0"
	body := []byte(`{"id":"evt_1","type":"send.created"}`)
	sent := time.Unix(1_767_225_600, 0)
	header := webhookverify.SignatureHeader(secret, sent, body)
	fmt.Println(header)

	fmt.Println(webhookverify.Verify(secret, header, body, sent.Add(time.Minute)))
	err := webhookverify.Verify(secret, header, []byte(`{"id":"evt_2","type":"send.created"}`), sent)
	fmt.Println(errors.Is(err, webhookverify.ErrNoMatch))
	err = webhookverify.Verify(secret, header, body, sent.Add(time.Hour))
	fmt.Println(errors.Is(err, webhookverify.ErrTimestampTooOld))
	// Output:
	// t=1767225600,v1=e00657d8f685e0f0eee40503245d02894880bf0f19a4ed195f884934e91d39c0
	// <nil>
	// true
	// true
}
