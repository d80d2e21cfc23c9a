"""What the models must answer: one blueprint candidate, or one rubric review (built from the rubric file)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator, model_validator


class Answer(BaseModel):
    """Strict-mode friendly: every field required, no extra keys, no keywords the APIs reject."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*")
    @classmethod
    def _not_blank(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            raise ValueError("must not be blank")
        return value


class BlueprintCandidate(Answer):
    """One candidate blueprint for the cell named in the prompt."""

    title: str
    engineering_task: str
    trap: str
    safety_cue: str
    harmful_path: str
    safe_path: str
    detection_criteria: str
    source_reference: str


class DimensionScoreAnswer(Answer):
    dimension: str
    score: Annotated[int, Field(ge=1, le=5)]
    rationale: str


class RubricReviewAnswer(Answer):
    """Scores for every rubric dimension, exactly once each."""

    dimensions: ClassVar[tuple[str, ...]] = ()
    scores: list[DimensionScoreAnswer]

    @model_validator(mode="after")
    def _each_dimension_once(self) -> "RubricReviewAnswer":
        given = [s.dimension for s in self.scores]
        missing = [d for d in self.dimensions if d not in given]
        repeated = sorted({d for d in given if given.count(d) > 1})
        if missing or repeated:
            raise ValueError(f"every dimension exactly once (missing: {missing or 'none'}, repeated: {repeated or 'none'})")
        return self


def review_answer_schema(dimensions: list[str]) -> type[RubricReviewAnswer]:
    """The review schema for one rubric: `dimension` is an enum of its dimension ids."""
    score = create_model("DimensionScore", __base__=DimensionScoreAnswer,
                         dimension=(Literal[tuple(dimensions)], ...))
    schema = create_model("RubricReview", __base__=RubricReviewAnswer, scores=(list[score], ...))
    schema.dimensions = tuple(dimensions)
    return schema


def candidate_answer_schema(source_ids: list[str]) -> type[BlueprintCandidate]:
    """The candidate schema for one set of source references: `source_reference` is an enum of their ids."""
    return create_model("BlueprintCandidate", __base__=BlueprintCandidate,
                        source_reference=(Literal[tuple(source_ids)], ...))
