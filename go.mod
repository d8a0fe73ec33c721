module ragjudge

go 1.26

require github.com/stretchr/testify v1.12.1

require github.com/coder/websocket v1.8.15

require (
	github.com/sashabaranov/go-openai v1.43.0
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
