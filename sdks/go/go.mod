module hrms.example/sdk/journey

go 1.23.0

require hrms.example/sdk/go v0.0.0

require (
	golang.org/x/oauth2 v0.27.0 // indirect
	gopkg.in/validator.v2 v2.0.1 // indirect
)

// the client openapi-generator writes into .sdks/gen/go (scripts/sdks/run.ts): build output, not committed
replace hrms.example/sdk/go => ../../.sdks/gen/go
