// @vitest-environment happy-dom
import { fireEvent, render, screen } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { ShortValue, shortValue } from '../../../components/shared/ShortValue';

const ID = '11111111-aaaa-4aaa-8aaa-0a0000000001';

describe('ShortValue: an id too long for a narrow panel', () => {
  it('is shortened to its start and end; short values stay whole', () => {
    expect(shortValue(ID)).toBe('11111111…000001');
    expect(shortValue('+14155550101')).toBe('+14155550101');
  });

  it('keeps the whole value in the tooltip, for screen readers and in the copy', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<ShortValue value={ID} name="Agent id" />);
    expect(screen.getByText('11111111…000001').getAttribute('title')).toBe(ID);
    expect(screen.getByText(ID).className).toBe('visually-hidden');
    fireEvent.click(screen.getByRole('button', { name: 'Copy the whole Agent id' }));
    expect(await screen.findByText(/Copied\./)).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(ID);

  });
});
