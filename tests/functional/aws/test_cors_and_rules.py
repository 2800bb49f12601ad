"""CORS (none unless origins are given) and the parameter rules, as CloudFormation gets them after the SAM transform."""

from __future__ import annotations

from typing import Any

from tests.functional.aws.iam_policies import Names, Resolver, transformed_template

ORIGINS = "https://app.example.com,http://localhost:5173"


def _resolved(parameters: dict[str, str]) -> tuple[dict[str, Any], Resolver]:
    template = transformed_template(parameters)
    return template, Resolver(template, parameters, Names({}, {}))


def _api(template: dict[str, Any]) -> dict[str, Any]:
    (api,) = [r for r in template["Resources"].values() if r["Type"] == "AWS::ApiGatewayV2::Api"]
    body: dict[str, Any] = api["Properties"]["Body"]
    return body


def test_no_origins_no_cors_anywhere() -> None:
    template, resolver = _resolved({})
    assert "x-amazon-apigateway-cors" not in resolver.value(_api(template))
    assert "CorsConfiguration" not in resolver.value(template["Resources"]["SourceBucket"]["Properties"])


def test_origins_allow_the_api_and_presigned_puts_from_those_origins_only() -> None:
    template, resolver = _resolved({"CorsAllowedOrigins": ORIGINS})
    cors = resolver.value(_api(template))["x-amazon-apigateway-cors"]
    assert cors["allowOrigins"] == ["https://app.example.com", "http://localhost:5173"]
    assert {"GET", "POST", "DELETE"} <= set(cors["allowMethods"]) and "authorization" in cors["allowHeaders"]
    (rule,) = resolver.value(template["Resources"]["SourceBucket"]["Properties"])["CorsConfiguration"]["CorsRules"]
    assert rule["AllowedMethods"] == ["PUT"] and rule["AllowedOrigins"] == cors["allowOrigins"]
    assert "CorsConfiguration" not in template["Resources"]["ArtifactsBucket"]["Properties"]


def test_rules_refuse_existing_modes_without_what_they_need() -> None:
    rules = transformed_template()["Rules"]
    opensearch = rules["ExistingOpenSearchIsNamed"]
    assert opensearch["RuleCondition"] == {"Fn::Equals": [{"Ref": "OpenSearchMode"}, "existing"]}
    asserted = {a["Assert"]["Fn::Not"][0]["Fn::Equals"][0]["Ref"] for a in opensearch["Assertions"]}
    assert asserted == {"OpenSearchEndpoint", "OpenSearchResourceArn"}
    auth = rules["ExistingAuthIsNamed"]
    assert auth["RuleCondition"] == {"Fn::Equals": [{"Ref": "AuthMode"}, "existing"]}
    assert {a["Assert"]["Fn::Not"][0]["Fn::Equals"][0]["Ref"] for a in auth["Assertions"]} == {
        "JwtIssuer",
        "JwtAudience",
    }


def test_ingestion_concurrency_fits_a_new_accounts_quota_by_default() -> None:
    template, resolver = _resolved({})
    caps = []
    for mapping in (r for r in template["Resources"].values() if r["Type"] == "AWS::Lambda::EventSourceMapping"):
        caps.append(int(resolver.value(mapping["Properties"]["ScalingConfig"]["MaximumConcurrency"])))
    assert len(caps) == 3 and sum(caps) <= 6  # leaves at least 4 of a quota of 10 for the API functions
