"""The AWS edge: settings from the environment, event decoding and service wiring for the Lambdas."""
