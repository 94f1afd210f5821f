import { describe, expect, it } from 'vitest';
import { embeddableLanguage } from '../src/vectors/language';

describe('the language a model is asked to embed', () => {
  it('takes plain ASCII with one foreign function word for English', () => {
    expect(embeddableLanguage('how do I get a new monitor')).toBe('english');
    expect(embeddableLanguage('log in de staging')).toBe('english');
  });

  it('knows other languages by two marker words or by their letters', () => {
    expect(embeddableLanguage('wie haben wir die Datenbank gesichert')).toBe('german');
    expect(embeddableLanguage('réunion d’équipe')).toBe('french');
    expect(embeddableLanguage('東京タワーの近くでミーティング')).toBe('other');
  });
});
