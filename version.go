package datahub

// Version is the version of this SDK. It is sent in the User-Agent header of
// every request and recorded as the client version in system metadata.
const Version = "0.1.0"

// ClientID names this SDK in the systemMetadata.properties.clientId of the
// proposals it writes, as DataHub's Python SDK writes "acryl-datahub".
const ClientID = "datahub-go"
