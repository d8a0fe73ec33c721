package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	openai "github.com/sashabaranov/go-openai"
)

// This file is the one place where go-openai builds a chat completion request that it does not
// send. go-openai (v1.43) exports no way to ask for a request's URL and headers: its URL
// building (Client.fullURL: the base URL, Azure's /openai/deployments/NAME prefix and
// api-version query) and its headers (setCommonHeaders: Authorization: Bearer or Azure's api-key;
// sendRequest and sendRequestStream: Accept, Content-Type, and a stream's Cache-Control and
// Connection) are unexported, and run only inside CreateChatCompletion and
// CreateChatCompletionStream. So the proxy calls those with an HTTPClient that keeps the request
// and answers errRequestBuilt, which ends the call before anything is sent. Writing the URL and
// headers here instead would be shorter, but it would be a second account of OpenAI's and
// Azure's conventions that drifts from go-openai's; this way an upgrade of go-openai is an
// upgrade of the proxy. If go-openai ever exports its URL building, this file goes.

// errRequestBuilt ends go-openai's part of a chat completion: it has built the request, and the
// proxy sends it with the browser's body in place of go-openai's.
var errRequestBuilt = errors.New("request built")

// requestCapture is go-openai's HTTPClient when it only builds a chat completion request: it
// keeps the request and sends nothing.
type requestCapture struct{ req *http.Request }

func (c *requestCapture) Do(req *http.Request) (*http.Response, error) {
	c.req = req
	return nil, errRequestBuilt
}

// buildRequest has go-openai build the request for a chat completion to u, URL and headers (key
// header, Accept, and for Azure the deployment path and api-version), without sending it.
// go-openai gets an empty request, so that its model checks and parameter rewrites, which would
// veto or change what the upstream should decide, see nothing; the deployment comes in through
// the mapper, already checked.
func (u *upstream) buildRequest(ctx context.Context, key, deployment string, stream bool) (*http.Request, error) {
	capture := &requestCapture{}
	cc := u.clientConfig(key, func(string) string { return deployment })
	cc.HTTPClient = capture
	client := openai.NewClientWithConfig(cc)
	var err error
	if stream {
		_, err = client.CreateChatCompletionStream(ctx, openai.ChatCompletionRequest{})
	} else {
		_, err = client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{})
	}
	if !errors.Is(err, errRequestBuilt) || capture.req == nil {
		return nil, fmt.Errorf("could not build the upstream request: %v", err)
	}
	return capture.req, nil
}
